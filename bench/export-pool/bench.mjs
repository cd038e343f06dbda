// Benchmark: export = render on real compositions (issue 33 §4). For every offline-capable block of the HyperFrames
// registry snapshot named by FX_BENCH_BLOCKS (bench/player/blocks.mjs), the frames the export would encode are
// drawn in Chromium by each rasteriser — `el.captureFrame(t)`, the export's own capture path, at five evenly spaced
// frames — and compared with our renderer's PNG still of the same frame (both lossless, both flattened over the
// renderer's black backdrop by FFmpeg, so the figure is the rasteriser's, not an encoder's): PSNR per frame, and per
// rasteriser how many blocks the capture check accepts and how many reach 35 dB at all five times (goal: ≥ 90 %).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { chromiumPath } from '../../scripts/chromium.mjs';
import { BENCH_CHROMIUM_ARGS } from '../lib/browser.mjs';
import { median } from '../lib/stats.mjs';
import { openWatchedPage } from '../player/block-checks.mjs';
import { BLOCKS_PREFIX, blocksSource, installBlocks } from '../player/blocks.mjs';
import { checkOurBundles } from '../player/setup.mjs';
import { BLOCKS_ONLY_ENV, FRAMES_DIR_ENV, frameIndexes, selectBlocks } from '../render-preview/bench.mjs';
import { loadBlock } from '../render-preview/preview.mjs';

export const name = 'export-pool';
export const description =
  'export = render on the registry pool (FX_BENCH_BLOCKS): each rasteriser’s captures vs the render’s stills, PSNR at 5 times';

const FPS = 30;
const MATCH_DB = 35;
const GOAL_SHARE = 0.9;
const IDENTICAL_DB = 100;
/** Chromium's flags per rasteriser: HTML-in-Canvas is behind a Blink feature in Chromium 156. */
const RASTERISERS = {
  'foreign-object': [],
  'html-in-canvas': ['--enable-blink-features=CanvasDrawElement'],
};

const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * In the page: the mounted player's frame at each of `times` by `rasteriser`, as base64 PNGs (alpha kept).
 * `{ refused: [codes] }` when the capture check refuses the composition, `{ error }` when a capture fails.
 */
async function captureInPage({ times, rasteriser }) {
  const element = document.querySelector('[data-bench-player]');
  const pngs = [];
  for (const time of times) {
    let still;
    try {
      still = await element.captureFrame(time, { type: 'image/png', rasteriser });
    } catch (error) {
      if (error?.code === 'export_capture_refused')
        return { refused: [...new Set(error.issues.map((issue) => issue.code))], message: error.message };
      return { error: `${error?.code ?? error?.name}: ${String(error?.message).slice(0, 300)}` };
    }
    const bytes = new Uint8Array(await still.arrayBuffer());
    let binary = '';
    for (let offset = 0; offset < bytes.length; offset += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
    pngs.push(btoa(binary));
  }
  return { pngs };
}

/**
 * One block in one browser: its duration and frames, then the five captures by `rasteriser`. Resolves to
 * `{ indexes, files }`, `{ refused, message }`, `{ notReady }`, `{ external }` or `{ error }`.
 */
async function captureBlock(context, browser, block, rasteriser, dir) {
  const opened = await openWatchedPage(context, 'fx', undefined, { browser });
  try {
    const { page, watch } = opened;
    const loaded = await loadBlock(context, opened, block);
    if (!loaded.duration) return loaded;
    const indexes = frameIndexes(Math.round(loaded.duration * FPS));
    const captured = await page.evaluate(captureInPage, { times: indexes.map((index) => index / FPS), rasteriser });
    if (!captured.pngs) return captured;
    if (watch.external.length > 0) return { external: [...new Set(watch.external)] };
    const files = [];
    for (const [k, png] of captured.pngs.entries()) {
      const file = join(dir, `${rasteriser}-${indexes[k]}.png`);
      await writeFile(file, Buffer.from(png, 'base64'));
      files.push(file);
    }
    return { indexes, files };
  } finally {
    await opened.close();
  }
}

/** `png` over black (the renderer's backdrop for formats without alpha) as `out`, by `ffmpeg`: alpha composited. */
async function flattened(ffmpeg, png, out) {
  await ffmpeg([
    '-i',
    png,
    '-filter_complex',
    'color=c=black[bg];[bg][0:v]scale2ref[bg][img];[bg][img]overlay=format=auto,format=rgb24',
    '-frames:v',
    '1',
    out,
  ]);
  return out;
}

export async function run(context) {
  const source = await blocksSource();
  if (source.skipped) return { skipped: source.skipped };
  const stale = await checkOurBundles(context.root);
  if (stale) context.log(stale);
  const { render } = await tsImport('../../src/render/index.ts', import.meta.url);
  const { ffmpeg, psnr } = await tsImport('../../test/render/helpers.ts', import.meta.url);
  const installed = await installBlocks(source.folder);
  const blocks = selectBlocks(installed.blocks, process.env[BLOCKS_ONLY_ENV], source.limit);
  await context.serveFolder(BLOCKS_PREFIX, installed.folder);
  // FX_BENCH_FRAMES_DIR keeps each block's captures and stills (`<block>/<rasteriser>-<frame>.png`, `render-…`).
  const kept = process.env[FRAMES_DIR_ENV];
  const scratch = kept || (await mkdtemp(join(tmpdir(), 'fx-bench-export-pool-')));
  const browsers = {};
  const started = performance.now();
  /** Per rasteriser: block → its scores, or why it was not compared. */
  const results = Object.fromEntries(
    Object.keys(RASTERISERS).map((rasteriser) => [rasteriser, { byBlock: {}, refused: {}, failed: {} }]),
  );
  const notReady = {};
  const notOffline = {};
  try {
    for (const [rasteriser, flags] of Object.entries(RASTERISERS))
      browsers[rasteriser] = await chromium.launch({
        executablePath: chromiumPath(),
        headless: true,
        args: [...BENCH_CHROMIUM_ARGS, ...flags],
      });
    for (const block of blocks) {
      const blockStarted = performance.now();
      const dir = join(scratch, block.name);
      await mkdir(dir, { recursive: true });
      const captures = {};
      for (const rasteriser of Object.keys(RASTERISERS)) {
        captures[rasteriser] = await captureBlock(context, browsers[rasteriser], block, rasteriser, dir).catch(
          (error) => ({ error: String(error?.message ?? error).split('\n')[0] }),
        );
        if (captures[rasteriser].notReady || captures[rasteriser].external) break;
      }
      const first = Object.values(captures)[0];
      if (first.notReady) notReady[block.name] = first.notReady;
      else if (first.external) notOffline[block.name] = first.external;
      // The renderer's still of each time compared (one render each), once, for every rasteriser that captured.
      const renderedStills = new Map();
      const renderedStill = async (index) => {
        if (!renderedStills.has(index))
          renderedStills.set(
            index,
            render({
              projectDir: join(installed.folder, block.name),
              composition: block.file,
              fps: FPS,
              format: 'png',
              quality: 'standard',
              time: index / FPS,
              outputPath: join(dir, `render-${index}.png`),
            }).then(async (result) => flattened(ffmpeg, result.videoPath, join(dir, `render-${index}.flat.png`))),
          );
        return renderedStills.get(index);
      };
      const summaries = [];
      for (const [rasteriser, capture] of Object.entries(captures)) {
        if (first.notReady || first.external) break;
        const tally = results[rasteriser];
        if (capture.refused) tally.refused[block.name] = capture.refused;
        // Not ready, or beyond localhost, in this browser only: accepted by nobody, counted as failed.
        else if (!capture.files)
          tally.failed[block.name] =
            capture.error ?? capture.notReady ?? `requested ${capture.external?.join(', ') ?? 'nothing it said'}`;
        else {
          const scores = [];
          try {
            for (const [k, index] of capture.indexes.entries()) {
              const mine = await flattened(ffmpeg, capture.files[k], capture.files[k].replace(/\.png$/, '.flat.png'));
              scores.push(round(Math.min(IDENTICAL_DB, await psnr(await renderedStill(index), mine))));
            }
          } catch (error) {
            tally.failed[block.name] = `render: ${String(error?.message ?? error).split('\n')[0]}`;
            summaries.push(`${rasteriser} failed`);
            continue;
          }
          tally.byBlock[block.name] = {
            times: capture.indexes.map((index) => round(index / FPS, 3)),
            psnr: scores,
            min: Math.min(...scores),
          };
        }
        summaries.push(
          `${rasteriser} ${tally.byBlock[block.name] ? `min ${tally.byBlock[block.name].min} dB` : capture.refused ? `refused (${capture.refused.join(', ')})` : 'failed'}`,
        );
      }
      if (!kept) await rm(dir, { recursive: true, force: true });
      const seconds = round((performance.now() - blockStarted) / 1000, 1);
      context.log(
        `${block.name}: ${notReady[block.name] ? `not ready (${notReady[block.name]})` : notOffline[block.name] ? 'not offline-capable' : summaries.join('; ')} (${seconds} s)`,
      );
    }
  } finally {
    await Promise.allSettled(Object.values(browsers).map((browser) => browser.close()));
    if (!kept) await rm(scratch, { recursive: true, force: true });
    await installed.remove();
  }
  const counts = [];
  const metrics = [];
  const perRasteriser = {};
  for (const [rasteriser, { byBlock, refused, failed }] of Object.entries(results)) {
    const compared = Object.entries(byBlock);
    const matching = compared.filter(([, figures]) => figures.min >= MATCH_DB);
    const accepted = compared.length + Object.keys(failed).length;
    counts.push(
      {
        name: `export ${rasteriser}: accepted by the capture check`,
        passed: accepted,
        of: accepted + Object.keys(refused).length,
      },
      {
        name: `export ${rasteriser}: ≥ ${MATCH_DB} dB at all 5 times (of accepted)`,
        passed: matching.length,
        of: accepted,
      },
    );
    if (compared.length > 0) {
      metrics.push(
        { name: `export ${rasteriser} PSNR, block min`, unit: 'dB', samples: compared.map(([, f]) => f.min) },
        { name: `export ${rasteriser} PSNR, every frame`, unit: 'dB', samples: compared.flatMap(([, f]) => f.psnr) },
      );
    }
    perRasteriser[rasteriser] = {
      accepted,
      matching: matching.length,
      goal: `≥ ${MATCH_DB} dB at all 5 on ≥ ${GOAL_SHARE * 100} % of accepted: ${accepted > 0 && matching.length / accepted >= GOAL_SHARE ? 'met' : 'missed'} (${accepted > 0 ? round((100 * matching.length) / accepted, 1) : 0} %)`,
      medianOfMins: compared.length > 0 ? median(compared.map(([, f]) => f.min)) : null,
      worst: compared
        .sort(([, a], [, b]) => a.min - b.min)
        .slice(0, 8)
        .map(([block, figures]) => ({ block, ...figures })),
      byBlock,
      refused,
      failed,
    };
  }
  if (metrics.length === 0)
    return { skipped: 'no block could be compared', details: { notReady, notOffline, results } };
  return {
    counts,
    metrics,
    details: {
      source: source.folder,
      method: `frames drawn by el.captureFrame(i / ${FPS}, { rasteriser }) (the export's capture, PNG over black) in Chromium (HTML-in-Canvas with --enable-blink-features=CanvasDrawElement) vs our renderer's PNG still of frame i (render({ format: 'png', time: i / ${FPS} })), both flattened over black by FFmpeg, at frames 0.1, 0.3, 0.5, 0.7, 0.9 × frames (as render-preview); PSNR over RGB, ${IDENTICAL_DB} dB for identical frames`,
      checked: blocks.length,
      minutes: round((performance.now() - started) / 60_000),
      perRasteriser,
      notReady,
      notOfflineCapable: notOffline,
      ...(stale ? { warning: stale } : {}),
    },
  };
}
