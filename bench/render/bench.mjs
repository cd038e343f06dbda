// Benchmark: render speed of a reference composition at 1080p and 720p, split into its parts — capture alone
// (seek + BeginFrame), what BeginFrame delivers on an unchanged page, FFmpeg alone — plus whole renders with one
// and two capture workers (the parallel speed-up) and the screenshot fallback's capture speed.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { median } from '../lib/stats.mjs';
import { referenceComposition } from './fixture.mjs';

export const name = 'render';
export const description =
  'frames/s of the reference composition at 1080p and 720p: capture, encode, whole render (1 and 2 workers)';

const RUNS = 3;
const FPS = 30;
const DURATION = 3;
const SCREENSHOT_FRAMES = 30;
const SIZES = [
  { label: '1080p', width: 1920, height: 1080 },
  { label: '720p', width: 1280, height: 720 },
];
/** The incumbent (HyperFrames 0.8.170) on this kind of machine, as measured for issue 4: frames/s at 1080p30. */
const INCUMBENT_1080P = { default: '3–7', beginFrame: '3.8–8.3' };

export async function run(context) {
  const measure = await tsImport('./measure.ts', import.meta.url);
  const { DEFAULT_CONCURRENCY } = await tsImport('../../src/render/options.ts', import.meta.url);
  const scratch = await mkdtemp(join(tmpdir(), 'fx-bench-render-'));
  const samples = {};
  const add = (metric, value) => (samples[metric] ??= []).push(Number(value.toFixed(2)));
  const loadBefore = loadavg()[0];
  try {
    const projects = {};
    for (const size of SIZES) {
      projects[size.label] = join(scratch, size.label);
      await mkdir(projects[size.label]);
      await writeFile(
        join(projects[size.label], 'index.html'),
        referenceComposition({ width: size.width, height: size.height, duration: DURATION }),
      );
    }
    for (let runIndex = 0; runIndex < RUNS; runIndex++) {
      // Alternate the order so a busy spell on the shared machine does not always hit the same measurement.
      const sizes = runIndex % 2 === 0 ? SIZES : [...SIZES].reverse();
      for (const size of sizes) {
        const projectDir = projects[size.label];
        const viewport = { width: size.width, height: size.height };
        const capture = await measure.measureCapture({
          projectDir,
          viewport,
          frames: DURATION * FPS,
          fps: FPS,
          mode: 'begin-frame',
        });
        add(`capture ${size.label} (seek + BeginFrame)`, capture.captureFps);
        add(`capture ${size.label} (BeginFrame, unchanged page)`, capture.idleCaptureFps);
        add(
          `encode ${size.label} (FFmpeg alone)`,
          await measure.measureEncode({ frames: capture.frames, fps: FPS, ...viewport, scratchDir: scratch }),
        );
        for (const concurrency of runIndex % 2 === 0 ? [1, 2] : [2, 1]) {
          const rendered = await measure.measureRender({ projectDir, fps: FPS, concurrency, scratchDir: scratch });
          add(`render ${size.label} (${concurrency} worker${concurrency > 1 ? 's' : ''})`, rendered.fps);
        }
        if (size.label === '1080p') {
          const screenshot = await measure.measureCapture({
            projectDir,
            viewport,
            frames: SCREENSHOT_FRAMES,
            fps: FPS,
            mode: 'screenshot',
          });
          add(`capture ${size.label} (seek + screenshot fallback)`, screenshot.captureFps);
        }
        context.log(`run ${runIndex + 1}/${RUNS} ${size.label}: capture ${capture.captureFps.toFixed(1)} fps`);
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }

  const ratio = (a, b) => Number((median(samples[a]) / median(samples[b])).toFixed(2));
  const details = {
    frames: DURATION * FPS,
    fps: FPS,
    runs: RUNS,
    format: 'mp4, quality standard (JPEG frames, x264 veryfast crf 20)',
    defaultConcurrency: DEFAULT_CONCURRENCY,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    incumbent1080pFps: INCUMBENT_1080P,
  };
  for (const { label } of SIZES) {
    // Whole renders as a share of what capture alone delivers (the goal: at least 0.7).
    details[`renderOverCapture${label}`] = {
      oneWorker: ratio(`render ${label} (1 worker)`, `capture ${label} (seek + BeginFrame)`),
      twoWorkers: ratio(`render ${label} (2 workers)`, `capture ${label} (seek + BeginFrame)`),
    };
    details[`parallelSpeedup${label}`] = ratio(`render ${label} (2 workers)`, `render ${label} (1 worker)`);
  }
  return {
    metrics: Object.entries(samples).map(([metric, values]) => ({ name: metric, unit: 'frames/s', samples: values })),
    details,
  };
}
