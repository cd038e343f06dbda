// Benchmark: the outputs beside video (issue 32) on the render benchmark's reference composition at 1080p — how long
// a still takes from the call to the file (an og:image or a mail's poster is rendered while someone waits), and a
// GIF's render time and size per pixel-frame (what the service's `gif_large` estimate multiplies), with the mp4 of
// the same frames as the yardstick.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { median } from '../lib/stats.mjs';
import { referenceComposition } from '../render/fixture.mjs';

export const name = 'outputs';
export const description = 'stills (png, jpeg, webp) and a GIF of the 1080p reference composition: time, size';

const RUNS = 3;
const SIZE = { width: 1920, height: 1080 };
const DURATION = 3;
const GIF_FPS = 15;

export async function run(context) {
  const { render } = await tsImport('../../src/render/render.ts', import.meta.url);
  const scratch = await mkdtemp(join(tmpdir(), 'fx-bench-outputs-'));
  const samples = {};
  const add = (metric, unit, value) => (samples[metric] ??= { unit, values: [] }).values.push(Number(value.toFixed(3)));
  const bytesPerPixelFrame = [];
  try {
    await writeFile(join(scratch, 'index.html'), referenceComposition({ ...SIZE, duration: DURATION }));
    const timed = async (options) => {
      const started = performance.now();
      const result = await render({ projectDir: scratch, composition: 'index.html', quality: 'standard', ...options });
      return { ms: performance.now() - started, result, bytes: (await stat(result.videoPath)).size };
    };
    for (let runIndex = 0; runIndex < RUNS; runIndex++) {
      for (const format of ['png', 'jpeg', 'webp']) {
        const still = await timed({
          format,
          fps: 30,
          time: 1.5,
          outputPath: join(scratch, `still-${runIndex}.${format}`),
        });
        add(`still ${format} 1080p (call → file)`, 'ms', still.ms);
        add(`still ${format} 1080p size`, 'KiB', still.bytes / 1024);
      }
      const gif = await timed({ format: 'gif', fps: GIF_FPS, outputPath: join(scratch, `clip-${runIndex}.gif`) });
      add(`gif 1080p ${GIF_FPS} fps, ${DURATION} s (call → file)`, 'ms', gif.ms);
      add(`gif 1080p size`, 'MiB', gif.bytes / 2 ** 20);
      bytesPerPixelFrame.push(gif.bytes / (gif.result.width * gif.result.height * gif.result.frames));
      const mp4 = await timed({ format: 'mp4', fps: GIF_FPS, outputPath: join(scratch, `clip-${runIndex}.mp4`) });
      add(`mp4 1080p ${GIF_FPS} fps, ${DURATION} s (call → file)`, 'ms', mp4.ms);
      context.log(
        `run ${runIndex + 1}/${RUNS}: gif ${(gif.ms / 1000).toFixed(1)} s, mp4 ${(mp4.ms / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const ms = (metric) => median(samples[metric].values);
  return {
    metrics: Object.entries(samples).map(([metric, { unit, values }]) => ({ name: metric, unit, samples: values })),
    details: {
      runs: RUNS,
      gifFrames: DURATION * GIF_FPS,
      gifBytesPerPixelFrame: Number(median(bytesPerPixelFrame).toFixed(4)),
      gifOverMp4Time: Number(
        (
          ms(`gif 1080p ${GIF_FPS} fps, ${DURATION} s (call → file)`) /
          ms(`mp4 1080p ${GIF_FPS} fps, ${DURATION} s (call → file)`)
        ).toFixed(2),
      ),
    },
  };
}
