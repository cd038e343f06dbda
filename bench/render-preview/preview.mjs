// One block of the render = preview benchmark: the preview's frames after `await seek(t)`, the render's frames at
// the same times, and their PSNR. The preview runs at the composition's own size and a real device scale of 1
// (playwright's emulated deviceScaleFactor would not reach the out-of-process composition frame).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openWatchedPage } from '../player/block-checks.mjs';
import { ROOT_TAG } from '../player/blocks.mjs';
import { inPage } from '../player/setup.mjs';

const LOAD_TIMEOUT_MS = 5000;
/**
 * How long after a seek's screenshot a second one is taken: a paused preview that still changes by then had not
 * settled when `seek()` resolved (the contract is "resolved once painted").
 */
export const SETTLED_CHECK_MS = 500;

/** The root's `data-width` × `data-height` as written in the source. */
function compositionSize(html) {
  const root = ROOT_TAG.exec(html)?.[0] ?? '';
  const read = (name) => Number(new RegExp(`\\s${name}\\s*=\\s*["']?([0-9.]+)`, 'i').exec(root)?.[1]);
  return { width: read('data-width'), height: read('data-height') };
}

/**
 * The page and the player at the composition's size before it loads: resizing a loaded element makes Chromium
 * show the frame's old surface until it draws at the new size, so the first screenshot after a seek could be stale.
 */
async function sizeFor(page, { width, height }) {
  await page.setViewportSize({ width, height });
  await page.addStyleTag({
    content: `body { margin: 0 } [data-bench-player] { width: ${width}px !important; height: ${height}px !important }`,
  });
}

/**
 * Loads `block` into the player of a watched page (`openWatchedPage`), once the page paints promptly again (the
 * GPU work a heavy block left behind, a WebGL block software-rendered here, is not this block's). Resolves to
 * `{ duration }`, `{ notReady }` (the "error" event's code, e.g. composition_duration_missing, or the timeout) or
 * `{ external }` (the URLs beyond localhost it asked for).
 */
export async function loadBlock(context, { page, pageModule, watch }, block) {
  await inPage(page, pageModule, 'untilPaintsPromptly');
  try {
    await inPage(page, pageModule, 'load', 'fx', await context.url(block.path), { timeoutMs: LOAD_TIMEOUT_MS });
  } catch (error) {
    const message = error.message.split('\n')[0].replace(/^\w+\.evaluate: (Error: )?/, '');
    return { notReady: /"code":"([^"]+)"/.exec(message)?.[1] ?? message };
  }
  if (watch.external.length > 0) return { external: [...new Set(watch.external)] };
  return { duration: await page.evaluate(() => document.querySelector('[data-bench-player]').duration) };
}

/**
 * Previews `block` (its composition file at `source`; skipped, saying why, when it is not ready or requests
 * beyond localhost), renders it with
 * `render(outputPath)` and scores the five frames `frameIndexes(frames)` with `psnr(a, b)`, each with the
 * `encoderCeiling(png)` of its preview. Returns `{ times, scores, ceilings, unsettled }`, `{ notReady }` or
 * `{ external }`; `unsettled` lists the times (their index) whose preview still changed after the seek resolved: how
 * much (`changeDb`, the PSNR of the later picture against the first) and the later picture's PSNR against the render.
 */
export async function comparePreview(
  context,
  { block, source, dir, fps, frameIndexes, render, renderedFrame, psnr, encoderCeiling },
) {
  await mkdir(dir, { recursive: true });
  const size = compositionSize(await readFile(source, 'utf8'));
  if (!(size.width > 0 && size.height > 0)) return { notReady: 'no data-width and data-height on the root' };
  const opened = await openWatchedPage(context, 'fx');
  const previews = [];
  let indexes;
  try {
    const { page, pageModule, watch } = opened;
    await sizeFor(page, size);
    const loaded = await loadBlock(context, opened, block);
    if (!loaded.duration) return loaded;
    indexes = frameIndexes(Math.round(loaded.duration * fps));
    const player = page.locator('[data-bench-player]');
    for (const index of indexes) {
      await inPage(page, pageModule, 'seek', index / fps);
      const file = join(dir, `preview-${index}.png`);
      const shot = await player.screenshot();
      await writeFile(file, shot);
      await page.waitForTimeout(SETTLED_CHECK_MS);
      const later = await player.screenshot();
      const laterFile = later.equals(shot) ? undefined : join(dir, `preview-${index}.later.png`);
      if (laterFile) await writeFile(laterFile, later);
      previews.push({ file, laterFile });
    }
    if (watch.external.length > 0) return { external: [...new Set(watch.external)] };
  } finally {
    await opened.close();
  }
  const result = await render(join(dir, 'render.mp4'));
  const scores = [];
  const ceilings = [];
  const unsettled = [];
  for (const [k, index] of indexes.entries()) {
    const rendered = await renderedFrame(result.videoPath, index, join(dir, `render-${index}.png`));
    const { file, laterFile } = previews[k];
    scores.push(await psnr(rendered, file));
    ceilings.push(await encoderCeiling(file));
    if (laterFile)
      unsettled.push({ index: k, changeDb: await psnr(file, laterFile), laterPsnr: await psnr(rendered, laterFile) });
  }
  return { times: indexes.map((index) => Math.round((index / fps) * 1000) / 1000), scores, ceilings, unsettled };
}
