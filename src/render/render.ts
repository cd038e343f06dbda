import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Issue } from '../runtime/issues.js';
import {
  audioForRange,
  audioInputs,
  audioMixArgs,
  readPageAudio,
  type AudioInput,
  type AudioSourcing,
} from './audio.js';
import { startEgressProxy } from './network/egress-proxy.js';
import { bundleDir } from './bundles.js';
import { captureAll } from './capture-loop.js';
import type { FrameRange } from './chunks/plan.js';
import type { CaptureWorker } from './capture-worker.js';
import { resolveCaptureMode } from './chromium.js';
import { compositionUrlPath } from './compile-in-browser.js';
import { encoderPreset, type EncoderPreset } from './encoder-presets.js';
import { abortedError, RenderErrorCode, renderError } from './errors.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { startGifPalettePass, startGifPass } from './gif-encoder.js';
import { renderOutputFrames } from './output-frames.js';
import { startStillEncoder } from './still.js';
import { isStillFormat, type StillFormat } from '../wire/render-request.js';
import type { OutputFrames } from '../wire/frames.js';
import { RenderNetworkPolicy } from './network/policy.js';
import { ALPHA_FORMATS, checkOptions, type CheckedOptions } from './options.js';
import { prepareWorkers, type Prepared } from './prepare.js';
import { removeStaleProfiles } from './profile-dirs.js';
import { startProjectServer, type ProjectServer } from './project-server.js';
import type { CaptureMode, RenderOptions, RenderProgress, RenderResult, RenderStage } from './types.js';
import { startVideoEncoder } from './video-encoder.js';
import { RenderWatch } from './watch.js';
import { WorkerPool } from './worker-pool.js';

/** Extra time FFmpeg may take to finish, per frame of the video (encoder lookahead, mux). */
const FINISH_MS_PER_FRAME = 50;

type Cleanup = () => Promise<unknown> | void;

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
 * `outputPath` unless the render completed, and no browser or FFmpeg process outlives the call.
 *
 * @example
 * const result = await render({ projectDir: 'my-project', composition: 'index.html', fps: 30, quality: 'standard',
 *   format: 'mp4', outputPath: 'out/video.mp4', onProgress: (p) => console.log(p.stage, p.framesDone, p.framesTotal) });
 */
export function render(options: RenderOptions): Promise<RenderResult> {
  return runRender(options, (started) => renderWhole(options, started));
}

/** What every render and chunk has once its workers are ready on the compiled document. */
export interface StartedRender {
  readonly checked: CheckedOptions;
  readonly watch: RenderWatch;
  readonly cleanups: Cleanup[];
  readonly report: (stage: RenderStage, framesDone: number, framesTotal: number) => void;
  readonly server: ProjectServer;
  readonly network: RenderNetworkPolicy;
  readonly audioProxy: string | undefined;
  readonly pool: WorkerPool;
  readonly mode: Exclude<CaptureMode, 'auto'>;
  readonly preset: EncoderPreset;
  readonly prepared: Prepared;
  readonly projectDir: string;
}

/**
 * Checks the options, runs `body` on the started render and always cleans up: on failure or abort every browser
 * and FFmpeg is killed and every partial file removed.
 */
export async function runRender<T>(options: RenderOptions, body: (started: StartedRender) => Promise<T>): Promise<T> {
  const checked = checkOptions(options);
  const watch = new RenderWatch(options.signal, checked.timeoutMs);
  const cleanups: Cleanup[] = [];
  try {
    return await body(await startRender(options, checked, watch, cleanups));
  } catch (error) {
    watch.fail(error instanceof Error ? error : new Error(String(error)));
    throw options.signal?.aborted ? abortedError(options.signal) : error;
  } finally {
    for (const cleanup of cleanups.reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => undefined);
    watch.dispose();
  }
}

async function startRender(
  options: RenderOptions,
  checked: CheckedOptions,
  watch: RenderWatch,
  cleanups: Cleanup[],
): Promise<StartedRender> {
  watch.check();
  const report = progressReporter(options.onProgress);
  report('compiling', 0, 0);
  const projectDir = resolve(options.projectDir);
  if (
    !(await stat(projectDir).then(
      (info) => info.isDirectory(),
      () => false,
    ))
  ) {
    throw renderError(RenderErrorCode.projectNotFound, `"projectDir" must be a directory, got "${options.projectDir}"`);
  }
  compositionUrlPath(options.composition);
  const preset = encoderPreset(checked.format, checked.quality);
  // Profiles of renders whose Node process was killed outright are only found now.
  await removeStaleProfiles();
  const server = await startProjectServer(projectDir, bundleDir());
  cleanups.push(() => server.close());
  const network = new RenderNetworkPolicy(server.origin, checked.unsafeAllowPrivateNetwork);
  // FFmpeg fetches remote audio through this proxy, after the browsers (which have their own) are gone.
  const audioProxy = checked.unsafeAllowPrivateNetwork ? undefined : await startEgressProxy(network);
  if (audioProxy) cleanups.push(() => audioProxy.close());
  const pool = new WorkerPool();
  cleanups.push(() => pool.closeAll());

  const mode = resolveCaptureMode(checked.capture);
  const base = { mode, transparent: ALPHA_FORMATS.has(checked.format), watch, network };
  const prepared = await prepareWorkers(pool, server, options.composition, checked, base, (total) =>
    report('loading', 0, total),
  );
  return {
    checked,
    watch,
    cleanups,
    report,
    server,
    network,
    audioProxy: audioProxy?.origin,
    pool,
    mode,
    preset,
    prepared,
    projectDir,
  };
}

/**
 * Captures frames [from, to) into a video file of its own (no audio) and closes the browsers. The encoder starts
 * fresh, so the file opens with a keyframe and no frame refers outside it. Progress counts frames of the range.
 */
export async function encodeRange(
  started: StartedRender,
  range: FrameRange,
  videoPath: string,
  containerArgs: readonly string[],
  thumbnail?: { readonly index: number; readonly path: string },
): Promise<void> {
  const { checked, preset, prepared } = started;
  const encoder = startVideoEncoder({
    preset: { ...preset, container: containerArgs },
    fps: checked.fps,
    width: prepared.geometry.width,
    height: prepared.geometry.height,
    outputPath: videoPath,
    container: checked.format,
  });
  await captureInto(started, range, encoder, 'finishing the video', thumbnail);
}

/** Captures frames [from, to) into `encoder`, waits for it to finish and closes the browsers. */
async function captureInto(
  started: StartedRender,
  range: FrameRange,
  encoder: FfmpegProcess,
  finishing: string,
  thumbnail?: { readonly index: number; readonly path: string },
): Promise<void> {
  const { checked, watch, cleanups, report, preset, prepared, pool } = started;
  const frames = range.to - range.from;
  cleanups.push(() => encoder.kill());
  encoder.done.catch((error: Error) => watch.fail(error));
  report('capturing', 0, frames);
  await captureAll({
    workers: prepared.workers,
    range,
    fps: checked.fps,
    preset,
    encoder,
    watch,
    thumbnail,
    onFrameWritten: (done) => report('capturing', done, frames),
  });
  report('encoding', frames, frames);
  await watch.step(finishing, encoder.finish(), finishTimeoutMs(checked, frames));
  await pool.closeAll();
}

/** FFmpeg's final flush and the mux get at least 50 ms per frame. */
export const finishTimeoutMs = (checked: CheckedOptions, frames: number) =>
  Math.max(checked.timeoutMs, frames * FINISH_MS_PER_FRAME);

/** Temp names next to `outputPath`, removed by the render's cleanup whatever happens. */
export function tempPaths<Name extends string>(started: StartedRender, outputPath: string, names: readonly Name[]) {
  const id = randomUUID().slice(0, 8);
  const paths = Object.fromEntries(names.map((name) => [name, `${outputPath}.fx-${id}.${name}.partial`])) as Record<
    Name,
    string
  >;
  started.cleanups.push(() => Promise.all(Object.values<string>(paths).map((path) => rm(path, { force: true }))));
  return paths;
}

async function renderWhole(options: RenderOptions, started: StartedRender): Promise<RenderResult> {
  const { checked, prepared } = started;
  const output = renderOutputFrames(checked, prepared.compiled.duration);
  if (isStillFormat(checked.format)) return renderStill(options, started, checked.format, output.from);
  return checked.format === 'gif' ? renderGif(options, started, output) : renderVideo(options, started, output);
}

/** The result's fields every output shares. */
function resultOf(started: StartedRender, output: FrameRange, issues: readonly Issue[] = []) {
  const { checked, prepared, network } = started;
  const frames = output.to - output.from;
  return {
    width: prepared.geometry.width,
    height: prepared.geometry.height,
    fps: checked.fps,
    frames,
    duration: isStillFormat(checked.format) ? 0 : frames / checked.fps,
    start: output.from / checked.fps,
    issues: [...prepared.compiled.issues, ...prepared.bindingIssues, ...network.issues(), ...issues],
    capture: started.mode,
  };
}

async function renderVideo(
  options: RenderOptions,
  started: StartedRender,
  output: OutputFrames,
): Promise<RenderResult> {
  const { checked, watch, cleanups, report, server, network, preset, prepared } = started;
  const { compiled, workers } = prepared;
  const audio = findAudio(workers[0]!, server, compiled.duration, watch, { network, proxy: started.audioProxy });

  const outputPath = resolve(options.outputPath);
  await mkdir(dirname(outputPath), { recursive: true });
  const thumbnailPath = thumbnailPathFor(outputPath, preset.image);
  const temp = tempPaths(started, outputPath, ['video', 'mux']);
  const thumbnailTemp = tempPaths(started, thumbnailPath, ['image']).image;

  const frames = output.to - output.from;
  await encodeRange(started, output, temp.video, preset.container, { index: output.thumbnail, path: thumbnailTemp });

  const found = await watch.step('probing the audio', audio);
  // A range's audio starts at its first frame and lasts as long as its frames; the whole render's lasts the timeline.
  const length = checked.range ? frames / checked.fps : compiled.duration;
  const inputs = audioForRange(found.inputs, output.from / checked.fps, length);
  let finished = temp.video;
  if (inputs.length > 0) {
    report('muxing', frames, frames);
    const muxer = new FfmpegProcess(
      audioMixArgs(['-i', temp.video], inputs, length, preset.audio, preset.container, checked.format, temp.mux),
      'mixing the audio',
    );
    cleanups.push(() => muxer.kill());
    await watch.step('mixing the audio', muxer.finish(), finishTimeoutMs(checked, frames));
    finished = temp.mux;
  }
  watch.check();
  await rename(finished, outputPath);
  await rename(thumbnailTemp, thumbnailPath);
  report('done', frames, frames);
  return {
    videoPath: outputPath,
    thumbnailPath,
    ...resultOf(started, output, found.issues),
    hasAudio: inputs.length > 0,
  };
}

/** Frames captured opaque as for mp4, kept with their palette (pass 1), then mapped onto it (pass 2); no audio. */
async function renderGif(options: RenderOptions, started: StartedRender, output: OutputFrames): Promise<RenderResult> {
  const { checked, watch, cleanups, report, preset, prepared } = started;
  const outputPath = resolve(options.outputPath);
  await mkdir(dirname(outputPath), { recursive: true });
  const thumbnailPath = thumbnailPathFor(outputPath, preset.image);
  const temp = tempPaths(started, outputPath, ['frames', 'palette', 'gif']);
  const thumbnailTemp = tempPaths(started, thumbnailPath, ['image']).image;
  const frames = output.to - output.from;
  const settings = {
    preset,
    fps: checked.fps,
    width: prepared.geometry.width,
    height: prepared.geometry.height,
    framesPath: temp.frames,
    palettePath: temp.palette,
  };
  const palettePass = startGifPalettePass(settings);
  await captureInto(started, output, palettePass, 'finishing the GIF palette', {
    index: output.thumbnail,
    path: thumbnailTemp,
  });
  const gifPass = startGifPass({ ...settings, loop: checked.loop ?? true, outputPath: temp.gif });
  cleanups.push(() => gifPass.kill());
  await watch.step('making the GIF', gifPass.finish(), finishTimeoutMs(checked, frames));
  watch.check();
  await rename(temp.gif, outputPath);
  await rename(thumbnailTemp, thumbnailPath);
  report('done', frames, frames);
  return { videoPath: outputPath, thumbnailPath, ...resultOf(started, output), hasAudio: false };
}

/** One frame, captured losslessly and encoded once (still.ts); the still is its own thumbnail. */
async function renderStill(
  options: RenderOptions,
  started: StartedRender,
  format: StillFormat,
  index: number,
): Promise<RenderResult> {
  const { checked, watch, cleanups, report, preset, prepared, pool } = started;
  const outputPath = resolve(options.outputPath);
  await mkdir(dirname(outputPath), { recursive: true });
  const temp = tempPaths(started, outputPath, ['still']).still;
  report('capturing', 0, 1);
  const image = await prepared.workers[0]!.frame(index, checked.fps, preset);
  await pool.closeAll();
  report('encoding', 1, 1);
  const { width, height } = prepared.geometry;
  const encoder = startStillEncoder({ format, quality: checked.quality, width, height, outputPath: temp });
  cleanups.push(() => encoder.kill());
  await watch.step(
    'encoding the still',
    encoder.write(image).then(() => encoder.finish()),
  );
  watch.check();
  await rename(temp, outputPath);
  report('done', 1, 1);
  return {
    videoPath: outputPath,
    thumbnailPath: outputPath,
    ...resultOf(started, { from: index, to: index + 1 }),
    hasAudio: false,
  };
}

/** Reads the page's audio clips and probes them while frames are captured; a failing render stops the probes. */
function findAudio(
  worker: CaptureWorker,
  server: ProjectServer,
  duration: number,
  watch: RenderWatch,
  sourcing: Omit<AudioSourcing, 'signal'>,
): Promise<{ inputs: AudioInput[]; issues: Issue[] }> {
  const found = readPageAudio(worker.page).then((clips) =>
    audioInputs(clips, server, duration, { ...sourcing, signal: watch.halted }),
  );
  found.catch((error: Error) => watch.fail(error));
  return found;
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
