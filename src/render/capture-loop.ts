import { writeFile } from 'node:fs/promises';
import type { CaptureWorker } from './capture-worker.js';
import type { FrameRange } from './chunks/plan.js';
import type { EncoderPreset } from './encoder-presets.js';
import type { FfmpegProcess } from './ffmpeg-process.js';
import { FrameSink } from './frame-sink.js';
import type { RenderWatch } from './watch.js';

export interface CaptureLoop {
  readonly workers: readonly CaptureWorker[];
  /** Frames [from, to) of the composition; progress and the encoder count from `from`. */
  readonly range: FrameRange;
  readonly fps: number;
  readonly preset: EncoderPreset;
  readonly encoder: FfmpegProcess;
  readonly watch: RenderWatch;
  /** Frame `index` of the composition written to `path` as captured (JPEG or PNG). */
  readonly thumbnail?: { readonly index: number; readonly path: string };
  onFrameWritten(framesDone: number): void;
}

/**
 * Captures every frame of the range and feeds the encoder in order. Worker k of n takes frames k, k + n, k + 2n, …, so the
 * workers stay close together and the reorder buffer small; the first failure stops them all.
 */
export async function captureAll(loop: CaptureLoop): Promise<void> {
  const { workers, range, fps, preset, encoder, watch, thumbnail } = loop;
  const frames = range.to - range.from;
  const sink = new FrameSink(frames, async (index, frame) => {
    if (thumbnail && range.from + index === thumbnail.index) await writeFile(thumbnail.path, frame);
    await watch.step('encoding a frame', encoder.write(frame));
    loop.onFrameWritten(index + 1);
  });
  await Promise.all(
    workers.map(async (worker, offset) => {
      try {
        for (let index = offset; index < frames; index += workers.length) {
          await sink.put(index, await worker.frame(range.from + index, fps, preset));
        }
      } catch (error) {
        sink.fail(error);
        watch.fail(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    }),
  );
}
