// Benchmark: the render equals the preview on real compositions (issue 13 §5). For every offline-capable block of
// the HyperFrames registry snapshot named by FX_BENCH_BLOCKS (bench/player/blocks.mjs), an mp4 at standard quality
// from our renderer (in-process) is compared with <fx-composition>'s screenshot after `await el.seek(t)` at five
// evenly spaced frames: PSNR per frame, min and median per block, and how many blocks reach 35 dB at all five.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { median } from '../lib/stats.mjs';
import { BLOCKS_PREFIX, blocksSource, installBlocks, poolOf } from '../player/blocks.mjs';
import { checkOurBundles } from '../player/setup.mjs';
import { comparePreview, SETTLED_CHECK_MS } from './preview.mjs';

export const name = 'render-preview';
export const description =
  'render = preview on the registry pool (FX_BENCH_BLOCKS): mp4 frames vs the preview after seek, PSNR at 5 times';

/** Limits a run to the named blocks (comma-separated), e.g. to re-check the ones that failed. */
export const BLOCKS_ONLY_ENV = 'FX_BENCH_BLOCKS_ONLY';
/** Keeps each block's render and compared frames (`<block>/render.mp4`, `preview-<frame>.png`, `render-<frame>.png`) here. */
export const FRAMES_DIR_ENV = 'FX_BENCH_FRAMES_DIR';
/** Renders with this capture path (`begin-frame` or `screenshot`: the full Chromium) instead of the machine's default. */
export const CAPTURE_ENV = 'FX_BENCH_CAPTURE';
const FPS = 30;
const FRACTIONS = [0.1, 0.3, 0.5, 0.7, 0.9];
const MATCH_DB = 35;
/** A frame the encoder alone puts below MATCH_DB matches when the render is within this of that ceiling. */
const CEILING_SLACK_DB = 1;
/** FFmpeg reports identical frames as `inf`; samples must be finite. */
const IDENTICAL_DB = 100;
/** A later screenshot this close to the first (PSNR) shows the same picture: a few pixels at most changed. */
const SETTLED_DB = 45;

const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Frame indexes at {@link FRACTIONS} of the render's frames: frame i shows time i / fps on both sides. */
export const frameIndexes = (frames) =>
  FRACTIONS.map((fraction) => Math.min(frames - 1, Math.round(fraction * frames)));

/** The pool of a run: the blocks named by {@link BLOCKS_ONLY_ENV} (`only`), else `limit` spread over all. */
export function selectBlocks(blocks, only, limit) {
  if (!only) return poolOf(blocks, limit);
  const names = only.split(',').map((entry) => entry.trim());
  const unknown = names.filter((wanted) => !blocks.some((block) => block.name === wanted));
  if (unknown.length > 0) throw new Error(`${BLOCKS_ONLY_ENV} names unknown blocks: ${unknown.join(', ')}`);
  return blocks.filter((block) => names.includes(block.name));
}

export async function run(context) {
  const source = await blocksSource();
  if (source.skipped) return { skipped: source.skipped };
  const stale = await checkOurBundles(context.root);
  if (stale) context.log(stale);
  const { render } = await tsImport('../../src/render/index.ts', import.meta.url);
  const { encoderPreset } = await tsImport('../../src/render/encoder-presets.ts', import.meta.url);
  const { extractFrame, ffmpeg, psnr } = await tsImport('../../test/render/helpers.ts', import.meta.url);
  const preset = encoderPreset('mp4', 'standard');
  // The preview's own picture through the render's encoder (one frame, so an upper bound for a frame of a stream).
  const encoderCeiling = async (png) => {
    const [encoded, decoded] = [png.replace(/\.png$/, '.encoded.mp4'), png.replace(/\.png$/, '.encoded.png')];
    await ffmpeg(['-i', png, ...preset.codec, '-pix_fmt', preset.pixelFormat, encoded]);
    await ffmpeg(['-i', encoded, '-frames:v', '1', decoded]);
    return Math.min(IDENTICAL_DB, await psnr(png, decoded));
  };
  const installed = await installBlocks(source.folder);
  const blocks = selectBlocks(installed.blocks, process.env[BLOCKS_ONLY_ENV], source.limit);
  await context.serveFolder(BLOCKS_PREFIX, installed.folder);
  const kept = process.env[FRAMES_DIR_ENV];
  const scratch = kept || (await mkdtemp(join(tmpdir(), 'fx-bench-render-preview-')));
  const started = performance.now();
  const byBlock = {};
  const notReady = {};
  const notOffline = {};
  const failed = {};
  try {
    for (const block of blocks) {
      const blockStarted = performance.now();
      const dir = join(scratch, block.name);
      const result = await comparePreview(context, {
        block,
        source: join(installed.folder, block.name, block.file),
        dir,
        fps: FPS,
        frameIndexes,
        render: (outputPath) =>
          render({
            projectDir: join(installed.folder, block.name),
            composition: block.file,
            fps: FPS,
            quality: 'standard',
            format: 'mp4',
            outputPath,
            ...(process.env[CAPTURE_ENV] ? { capture: process.env[CAPTURE_ENV] } : {}),
          }),
        renderedFrame: async (video, index, png) => (await extractFrame(video, index, png), png),
        psnr: async (a, b) => Math.min(IDENTICAL_DB, await psnr(a, b)),
        encoderCeiling,
      }).catch((error) => ({ error: String(error?.message ?? error).split('\n')[0] }));
      if (!kept) await rm(dir, { recursive: true, force: true });
      const seconds = round((performance.now() - blockStarted) / 1000, 1);
      if (result.notReady) notReady[block.name] = result.notReady;
      else if (result.external) notOffline[block.name] = result.external;
      else if (result.error) failed[block.name] = result.error;
      else {
        const scores = result.scores.map((score) => round(score));
        const ceilings = result.ceilings.map((ceiling) => round(ceiling));
        byBlock[block.name] = {
          times: result.times,
          psnr: scores,
          encoderCeiling: ceilings,
          min: Math.min(...scores),
          median: median(scores),
          // Every frame at MATCH_DB, or (where the encoder alone falls below it) as close as the encoder gets.
          matchesOrEncoderBound: scores.every(
            (score, k) => score >= MATCH_DB || (ceilings[k] < MATCH_DB && score >= ceilings[k] - CEILING_SLACK_DB),
          ),
          seconds,
          ...(result.unsettled.length > 0
            ? {
                unsettled: result.unsettled.map(({ index, changeDb, laterPsnr }) => ({
                  time: result.times[index],
                  changeDb: round(changeDb),
                  laterPsnr: round(laterPsnr),
                })),
              }
            : {}),
        };
      }
      const summary = byBlock[block.name]
        ? `min ${byBlock[block.name].min} dB, median ${byBlock[block.name].median} dB`
        : (result.notReady ?? (result.external ? 'not offline-capable' : result.error));
      context.log(`${block.name}: ${summary} (${seconds} s)`);
    }
  } finally {
    if (!kept) await rm(scratch, { recursive: true, force: true });
    await installed.remove();
  }
  const compared = Object.entries(byBlock);
  const matching = compared.filter(([, figures]) => figures.min >= MATCH_DB);
  const encoderBound = compared.filter(([, figures]) => figures.matchesOrEncoderBound);
  const settled = compared.filter(([, figures]) => (figures.unsettled ?? []).every((u) => u.changeDb >= SETTLED_DB));
  const worst = compared.sort(([, a], [, b]) => a.min - b.min);
  const metrics =
    compared.length === 0
      ? []
      : [
          {
            name: 'render=preview PSNR, block min',
            unit: 'dB',
            samples: compared.map(([, figures]) => figures.min),
          },
          {
            name: 'render=preview PSNR, block median',
            unit: 'dB',
            samples: compared.map(([, figures]) => figures.median),
          },
          { name: 'render=preview seconds per block', unit: 's', samples: compared.map(([, f]) => f.seconds) },
        ];
  if (metrics.length === 0) return { skipped: 'no block could be compared', details: { notReady, notOffline, failed } };
  return {
    counts: [
      { name: `render=preview ≥ ${MATCH_DB} dB at all 5 times`, passed: matching.length, of: compared.length },
      {
        name: `render=preview ≥ ${MATCH_DB} dB or encoder-bound at all 5`,
        passed: encoderBound.length,
        of: compared.length,
      },
      {
        name: `preview the same ${SETTLED_CHECK_MS / 1000} s after each seek (≥ ${SETTLED_DB} dB)`,
        passed: settled.length,
        of: compared.length,
      },
    ],
    metrics,
    details: {
      source: source.folder,
      method: `mp4 (${FPS} fps, standard quality, our renderer in-process) vs <fx-composition> at the composition's own size and device scale 1, screenshot of the element after await seek(i / ${FPS}) at frames ${FRACTIONS.join(', ')} × frames; PSNR over RGB (FFmpeg psnr filter), ${IDENTICAL_DB} dB for identical frames`,
      checked: blocks.length,
      compared: compared.length,
      matching: matching.length,
      matchingOrEncoderBound: encoderBound.length,
      unsettled: `the times whose element screenshot ${SETTLED_CHECK_MS} ms after the first differs from it: changeDb is the later picture's PSNR against the first (below ${SETTLED_DB} dB the seek resolved before its picture was composited, or something moves while paused; above, a few pixels changed, such as a raster tile redone at full quality), laterPsnr the later picture's against the render`,
      encoderBound: `a frame below ${MATCH_DB} dB counts as encoder-bound when the preview's own picture, encoded alone with the render's mp4 settings, is below ${MATCH_DB} dB too and the render is within ${CEILING_SLACK_DB} dB of it`,
      minutes: round((performance.now() - started) / 60_000),
      worst: worst.slice(0, 5).map(([block, figures]) => ({ block, ...figures })),
      byBlock,
      notReady,
      notOfflineCapable: notOffline,
      failed,
      ...(stale ? { warning: stale } : {}),
    },
  };
}
