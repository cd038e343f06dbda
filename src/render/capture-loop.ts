import { writeFile } from 'node:fs/promises';
import type { CaptureWorker } from './capture-worker.js';
import type { EncoderPreset } from './encoder-presets.js';
import type { FfmpegProcess } from './ffmpeg-process.js';
import { FrameSink } from './frame-sink.js';
import type { RenderWatch } from './watch.js';

export interface CaptureLoop {
  readonly workers: readonly CaptureWorker[];
  readonly frames: number;
  readonly fps: number;
  readonly preset: EncoderPreset;
  readonly encoder: FfmpegProcess;
  readonly watch: RenderWatch;
  /** Frame written to `thumbnailPath` as captured (JPEG or PNG). */
  readonly thumbnailIndex: number;
  readonly thumbnailPath: string;
  onFrameWritten(framesDone: number): void;
}

/**
 * Captures every frame and feeds the encoder in order. Worker k of n takes frames k, k + n, k + 2n, …, so the
 * workers stay close together and the reorder buffer small; the first failure stops them all.
 */
export async function captureAll(loop: CaptureLoop): Promise<void> {
  const { workers, frames, fps, preset, encoder, watch } = loop;
  const sink = new FrameSink(frames, async (index, frame) => {
    if (index === loop.thumbnailIndex) await writeFile(loop.thumbnailPath, frame);
    await watch.step('encoding a frame', encoder.write(frame));
    loop.onFrameWritten(index + 1);
  });
  await Promise.all(
    workers.map(async (worker, offset) => {
      try {
        for (let index = offset; index < frames; index += workers.length) {
          await sink.put(index, await worker.frame(index, fps, preset));
        }
      } catch (error) {
        sink.fail(error);
        watch.fail(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    }),
  );
}
