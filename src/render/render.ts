import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Issue } from '../runtime/issues.js';
import { audioInputs, audioMixArgs, readPageAudio, type AudioInput } from './audio.js';
import { bundleDir } from './bundles.js';
import { CaptureWorker, type WorkerSettings } from './capture-worker.js';
import { resolveCaptureMode } from './chromium.js';
import { compileInBrowser, compositionUrlPath } from './compile-in-browser.js';
import { encoderPreset, type EncoderPreset } from './encoder-presets.js';
import { abortedError, RenderErrorCode, renderError } from './errors.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { FrameSink } from './frame-sink.js';
import { ALPHA_FORMATS, checkOptions, outputGeometry, type CheckedOptions } from './options.js';
import { startProjectServer } from './project-server.js';
import type { RenderOptions, RenderProgress, RenderResult, RenderStage } from './types.js';
import { startVideoEncoder } from './video-encoder.js';
import { RenderWatch } from './watch.js';

/** Size the compile page gets before the composition's own size is known. */
const COMPILE_VIEWPORT = { width: 1920, height: 1080 };

/** Where the thumbnail of `outputPath` goes: `clip.mp4` → `clip.thumbnail.jpg` (`.png` for alpha formats). */
export function thumbnailPathFor(outputPath: string, image: EncoderPreset['image']): string {
  const name = basename(outputPath, extname(outputPath));
  return join(dirname(outputPath), `${name}.thumbnail.${image === 'png' ? 'png' : 'jpg'}`);
}

/**
 * Renders a composition to a video file with a thumbnail next to it. The entry is compiled inside Chromium by the
 * same compiler and loaded with the same runtime as the `<fx-composition>` preview; every frame is reached through
 * the runtime's `seek`, captured (BeginFrame in `chromium-headless-shell`, else screenshots) and piped to FFmpeg;
 * audio of `<audio>` and `<video data-has-audio>` is mixed in a second pass at the runtime's clip offsets.
 * Rejects with an `FxError` whose `code` is a {@link RenderErrorCode} or a compiler code; nothing is left at
 * `outputPath` unless the render completed.
 *
 * @example
 * const result = await render({ projectDir: 'my-project', composition: 'index.html', fps: 30, quality: 'standard',
 *   format: 'mp4', outputPath: 'out/video.mp4', onProgress: (p) => console.log(p.stage, p.framesDone, p.framesTotal) });
 */
export async function render(options: RenderOptions): Promise<RenderResult> {
  const checked = checkOptions(options);
  const watch = new RenderWatch(options.signal, checked.timeoutMs);
  const cleanups: (() => Promise<unknown> | void)[] = [];
  try {
    return await renderChecked(options, checked, watch, cleanups);
  } catch (error) {
    watch.fail(error instanceof Error ? error : new Error(String(error)));
    throw options.signal?.aborted ? abortedError(options.signal) : error;
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve().then(cleanup).catch(() => undefined);
    watch.dispose();
  }
}

async function renderChecked(options: RenderOptions, checked: CheckedOptions, watch: RenderWatch, cleanups: (() => Promise<unknown> | void)[]): Promise<RenderResult> {
  const report = progressReporter(options.onProgress);
  report('compiling', 0, 0);
  const projectDir = resolve(options.projectDir);
  const isDirectory = await stat(projectDir).then((info) => info.isDirectory(), () => false);
  if (!isDirectory) throw renderError(RenderErrorCode.projectNotFound, `"projectDir" must be a directory, got "${options.projectDir}"`);
  compositionUrlPath(options.composition);
  const distDir = bundleDir();
  const preset = encoderPreset(checked.format, checked.quality);
  const outputPath = resolve(options.outputPath);
  await mkdir(dirname(outputPath), { recursive: true });

  const server = await startProjectServer(projectDir, distDir);
  cleanups.push(() => server.close());
  const mode = resolveCaptureMode(checked.capture);
  const transparent = ALPHA_FORMATS.has(checked.format);
  const workers: CaptureWorker[] = [];
  cleanups.push(() => Promise.all(workers.map((worker) => worker.close())));
  const startWorker = async (settings: WorkerSettings) => {
    const worker = await CaptureWorker.start(settings);
    workers.push(worker);
    return worker;
  };

  // Compile in the first browser; keep it as a capture worker when no scaling is needed.
  let first: CaptureWorker | undefined = await startWorker({ mode, viewport: COMPILE_VIEWPORT, scale: 1, transparent, watch });
  const compiled = await compileInBrowser(first.page, server, options.composition, { fps: checked.fps, variables: checked.variables });
  if (!compiled.duration || !(compiled.duration > 0)) {
    throw renderError(RenderErrorCode.durationMissing, `composition "${options.composition}" needs a positive "data-duration" on its root, got ${compiled.duration ?? 'none'}`);
  }
  const geometry = outputGeometry({ width: compiled.width ?? COMPILE_VIEWPORT.width, height: compiled.height ?? COMPILE_VIEWPORT.height }, checked);
  const frames = Math.max(1, Math.round(compiled.duration * checked.fps));
  const concurrency = Math.min(checked.concurrency, frames);
  if (geometry.scale === 1) await first.page.setViewport(geometry.viewport, 1);
  else {
    workers.splice(workers.indexOf(first), 1);
    await first.close();
    first = undefined;
  }

  report('loading', 0, frames);
  const documentUrl = server.addDocument(randomUUID(), compiled.html);
  const settings: WorkerSettings = { mode, viewport: geometry.viewport, scale: geometry.scale, transparent, watch };
  const capturing = await Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      const worker = index === 0 && first ? first : await startWorker(settings);
      await worker.load(documentUrl);
      return worker;
    }),
  );
  const audio = findAudio(capturing[0]!, server, compiled.duration, watch);

  const id = randomUUID().slice(0, 8);
  const videoTemp = `${outputPath}.fx-${id}.video.partial`;
  const muxTemp = `${outputPath}.fx-${id}.mux.partial`;
  const thumbnailPath = thumbnailPathFor(outputPath, preset.image);
  const thumbnailTemp = `${thumbnailPath}.fx-${id}.partial`;
  cleanups.push(() => Promise.all([videoTemp, muxTemp, thumbnailTemp].map((path) => rm(path, { force: true }))));

  const encoder = startVideoEncoder({ preset, fps: checked.fps, width: geometry.width, height: geometry.height, outputPath: videoTemp, container: checked.format });
  cleanups.push(() => encoder.kill());
  encoder.done.catch((error: Error) => watch.fail(error));
  const thumbnailIndex = Math.min(frames - 1, Math.round(Math.min(1, compiled.duration / 2) * checked.fps));
  const sink = new FrameSink(frames, async (index, frame) => {
    if (index === thumbnailIndex) await writeFile(thumbnailTemp, frame);
    await watch.step('encoding a frame', encoder.write(frame));
    report('capturing', index + 1, frames);
  });
  report('capturing', 0, frames);
  await Promise.all(
    capturing.map(async (worker, offset) => {
      try {
        for (let index = offset; index < frames; index += capturing.length) {
          await sink.put(index, await worker.frame(index, checked.fps, preset));
        }
      } catch (error) {
        sink.fail(error);
        watch.fail(error as Error);
        throw error;
      }
    }),
  );
  report('encoding', frames, frames);
  await watch.step('finishing the video', encoder.finish());
  await Promise.all(workers.splice(0).map((worker) => worker.close()));

  const { inputs, issues: audioIssues } = await audio;
  let finished = videoTemp;
  if (inputs.length > 0) {
    report('muxing', frames, frames);
    await mux(videoTemp, inputs, compiled.duration, preset, checked.format, muxTemp, watch, cleanups);
    finished = muxTemp;
  }
  watch.check();
  await rename(finished, outputPath);
  await rename(thumbnailTemp, thumbnailPath);
  report('done', frames, frames);
  return {
    videoPath: outputPath,
    thumbnailPath,
    width: geometry.width,
    height: geometry.height,
    fps: checked.fps,
    frames,
    duration: frames / checked.fps,
    issues: [...compiled.issues, ...audioIssues] as Issue[],
    hasAudio: inputs.length > 0,
    capture: mode,
  };
}

/** Reads the page's audio clips and probes them while frames are captured. */
function findAudio(worker: CaptureWorker, server: Parameters<typeof audioInputs>[1], duration: number, watch: RenderWatch) {
  const found = readPageAudio(worker.page).then((clips) => audioInputs(clips, server, duration));
  found.catch((error: Error) => watch.fail(error));
  return found;
}

async function mux(videoPath: string, inputs: readonly AudioInput[], duration: number, preset: EncoderPreset, format: string, outputPath: string, watch: RenderWatch, cleanups: (() => unknown)[]) {
  const muxer = new FfmpegProcess(audioMixArgs(videoPath, inputs, duration, preset.audio, preset.container, format, outputPath), 'mixing the audio');
  cleanups.push(() => muxer.kill());
  await watch.step('mixing the audio', muxer.finish());
}

function progressReporter(onProgress: RenderOptions['onProgress']) {
  return (stage: RenderStage, framesDone: number, framesTotal: number) => {
    if (!onProgress) return;
    const progress: RenderProgress = { stage, framesDone, framesTotal };
    try {
      onProgress(progress);
    } catch {
      // A failing progress listener must not fail the render.
    }
  };
}
