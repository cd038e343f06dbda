import { mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Issue } from '../../runtime/issues.js';
import { audioForRange, audioInputs, audioMixArgs } from '../audio.js';
import type { PageAudioClip } from '../frame-calls.js';
import { checkChunkRanges } from './plan.js';
import { CHUNK_DEMUXERS, checkChunkFiles, videoFrames } from './probe.js';
import type { ChunkResult } from './render.js';
import { startEgressProxy } from '../network/egress-proxy.js';
import { encoderPreset, type EncoderPreset } from '../encoder-presets.js';
import { abortedError, RenderErrorCode, renderError } from '../errors.js';
import { FfmpegProcess } from '../ffmpeg-process.js';
import { RenderNetworkPolicy } from '../network/policy.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../options.js';
import { outputFrames } from '../../wire/frames.js';
import { thumbnailPathFor } from '../render.js';
import type { RenderResult } from '../types.js';
import { RenderWatch } from '../watch.js';

export interface JoinChunksOptions {
  /** The chunks' results, in frame order, covering every frame of the composition once. */
  readonly chunks: readonly ChunkResult[];
  /** Where to write the video; the thumbnail goes next to it, as with `render`. */
  readonly outputPath: string;
  /** The project the chunks were rendered from: its audio files are mixed from here. */
  readonly projectDir: string;
  /** As in `render`: lets FFmpeg fetch audio from loopback and private networks. Tests only. */
  readonly unsafeAllowPrivateNetwork?: boolean;
  readonly signal?: AbortSignal;
  /** Longest wait for one step (probing, joining, the thumbnail); default 30 s, at least 50 ms per frame. */
  readonly timeoutMs?: number;
}

/** Settings every chunk of one render shares; a chunk that differs was rendered for another render. */
const SHARED = [
  'format',
  'quality',
  'fps',
  'width',
  'height',
  'frames',
  'duration',
  'output',
  'thumbnail',
  'audio',
] as const;
const MS_PER_FRAME = 50;

/**
 * Joins rendered chunks into the final video without re-encoding a frame: checks that the ranges tile the
 * composition and that every file was encoded alike (ffprobe), concatenates them with FFmpeg's concat demuxer
 * (`-c copy`), mixes the timeline's audio once over the whole duration in the same pass, and takes the thumbnail
 * from the joined file. Rejects with `chunk_ranges_invalid` or `chunk_files_mismatched` before writing anything;
 * the output appears at `outputPath` only once complete.
 *
 * @example
 * const result = await joinChunks({ chunks, outputPath: 'out/video.mp4', projectDir: 'my-project' });
 */
export async function joinChunks(options: JoinChunksOptions): Promise<RenderResult> {
  const watch = new RenderWatch(options?.signal, checkJoinOptions(options));
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    return await joinChecked(options, watch, cleanups);
  } catch (error) {
    watch.fail(error instanceof Error ? error : new Error(String(error)));
    throw options.signal?.aborted ? abortedError(options.signal) : error;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    watch.dispose();
  }
}

/** Checks the join's own options before any work; returns the step time limit. */
function checkJoinOptions(options: JoinChunksOptions): number {
  const invalid = (message: string) => renderError(RenderErrorCode.optionInvalid, message);
  if (typeof options !== 'object' || options === null) throw invalid('join options must be an object');
  for (const name of ['outputPath', 'projectDir'] as const) {
    if (typeof options[name] !== 'string' || options[name].trim() === '')
      throw invalid(`"${name}" must be a non-empty string, got ${JSON.stringify(options[name])}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)
    throw invalid(`"timeoutMs" must be an integer from 1 to ${MAX_TIMEOUT_MS}, got ${JSON.stringify(timeoutMs)}`);
  return timeoutMs;
}

function sharedSettings(chunks: readonly ChunkResult[]): ChunkResult {
  if (!Array.isArray(chunks) || chunks.length === 0)
    throw renderError(RenderErrorCode.chunkRangesInvalid, '"chunks" must list at least one chunk');
  const first = chunks[0]!;
  chunks.forEach((chunk, index) => {
    for (const key of SHARED) {
      if (JSON.stringify(chunk?.[key]) !== JSON.stringify(first[key]))
        throw renderError(
          RenderErrorCode.chunkFilesMismatched,
          `chunk ${index} has "${key}" ${JSON.stringify(chunk?.[key])}, chunk 0 has ${JSON.stringify(first[key])}: they belong to different renders`,
        );
    }
  });
  return first;
}

async function joinChecked(
  options: JoinChunksOptions,
  watch: RenderWatch,
  cleanups: (() => Promise<unknown>)[],
): Promise<RenderResult> {
  const shared = sharedSettings(options.chunks);
  // What the render outputs: every frame, or its `range` (chunks of an older renderer: every frame).
  const output = shared.output ?? { from: 0, to: shared.frames };
  const frames = output.to - output.from;
  checkChunkRanges(options.chunks, output.to, output.from);
  const paths = options.chunks.map((chunk) => resolve(chunk.path));
  if (paths.some((path) => /[\n\r]/.test(path)))
    throw renderError(RenderErrorCode.optionInvalid, 'a chunk "path" must not contain a line break');
  await watch.step(
    'checking the chunk files',
    checkChunkFiles(
      options.chunks.map((chunk, index) => ({ path: paths[index]!, from: chunk.from, to: chunk.to })),
      shared,
      watch.halted,
    ),
  );
  const preset = encoderPreset(shared.format, shared.quality);
  // The first chunk's label (`chunkLabel`) is no tag of the joined file.
  const container = [...preset.container, '-metadata', 'comment='];
  const timeoutMs = Math.max(watch.timeoutMs, frames * MS_PER_FRAME);
  const outputPath = resolve(options.outputPath);
  await mkdir(dirname(outputPath), { recursive: true });
  const id = randomUUID().slice(0, 8);
  const thumbnailPath = thumbnailPathFor(outputPath, preset.image);
  const temp = {
    list: `${outputPath}.fx-${id}.list.partial`,
    video: `${outputPath}.fx-${id}.video.partial`,
    thumbnail: `${thumbnailPath}.fx-${id}.partial`,
  };
  cleanups.push(() => Promise.all(Object.values(temp).map((path) => rm(path, { force: true }))));
  // ffconcat quoting: inside '…' only ' needs escaping, as '\''.
  await writeFile(
    temp.list,
    `ffconcat version 1.0\n${paths.map((path) => `file '${path.replaceAll("'", "'\\''")}'\n`).join('')}`,
  );
  const joined = [
    ...['-protocol_whitelist', 'file', '-format_whitelist', `concat,${CHUNK_DEMUXERS}`],
    ...['-f', 'concat', '-safe', '0', '-i', `file:${temp.list}`],
  ];

  const found = await watch.step('probing the audio', mixableAudio(options, shared, watch, cleanups));
  // As in `render`: a range's audio from its first frame for its length, a whole render's over the timeline.
  const length = output.from > 0 || output.to < shared.frames ? frames / shared.fps : shared.duration;
  const inputs = audioForRange(found.inputs, output.from / shared.fps, length);
  const issues = found.issues;
  const args =
    inputs.length > 0
      ? audioMixArgs(joined, inputs, length, preset.audio, container, shared.format, temp.video)
      : [...joined, '-map', '0:v:0', '-c', 'copy', ...container, '-f', shared.format, temp.video];
  await run(args, 'joining the chunks', watch, cleanups, timeoutMs);
  // Checked, not assumed: a join that lost or repeated a frame must not be delivered.
  const joinedFrames = await watch.step('counting the joined frames', videoFrames(temp.video, watch.halted));
  if (joinedFrames !== frames)
    throw renderError(
      RenderErrorCode.ffmpegFailed,
      `joining the chunks: the joined video has ${joinedFrames} frames, the chunks ${frames}`,
    );
  const thumbnailIndex = (shared.thumbnail ?? defaultThumbnail(shared)) - output.from;
  await run(
    thumbnailArgs(temp.video, shared.format, preset, thumbnailIndex, temp.thumbnail),
    'taking the thumbnail',
    watch,
    cleanups,
    timeoutMs,
  );
  watch.check();
  await rename(temp.video, outputPath);
  await rename(temp.thumbnail, thumbnailPath);
  return {
    videoPath: outputPath,
    thumbnailPath,
    width: shared.width,
    height: shared.height,
    fps: shared.fps,
    frames,
    duration: frames / shared.fps,
    start: output.from / shared.fps,
    issues: [...chunkIssues(options.chunks), ...issues],
    hasAudio: inputs.length > 0,
    capture: shared.capture,
  };
}

/** The thumbnail of chunks that do not say theirs (an older renderer's: all frames, the default rule). */
function defaultThumbnail(shared: ChunkResult): number {
  const answer = outputFrames(shared.duration, shared.fps, { format: shared.format });
  return 'frames' in answer ? answer.frames.thumbnail : 0;
}

/** The chunks' own issues, each once (every chunk compiled and loaded the same document). */
function chunkIssues(chunks: readonly ChunkResult[]): Issue[] {
  const seen = new Map<string, Issue>();
  for (const issue of chunks.flatMap((chunk) => chunk.issues ?? [])) seen.set(JSON.stringify(issue), issue);
  return [...seen.values()];
}

async function run(
  args: string[],
  what: string,
  watch: RenderWatch,
  cleanups: (() => Promise<unknown>)[],
  timeoutMs: number,
): Promise<void> {
  const ffmpeg = new FfmpegProcess(args, what);
  cleanups.push(() => ffmpeg.kill());
  await watch.step(what, ffmpeg.finish(), timeoutMs);
}

/**
 * The timeline's audio as FFmpeg inputs, by audio.ts's own rules: project files only from inside `projectDir`
 * (symlinks resolved), URLs only where the network policy allows, fetched through an egress proxy.
 */
async function mixableAudio(
  options: JoinChunksOptions,
  shared: ChunkResult,
  watch: RenderWatch,
  cleanups: (() => Promise<unknown>)[],
): Promise<{ inputs: Awaited<ReturnType<typeof audioInputs>>['inputs']; issues: Issue[] }> {
  if (shared.audio.length === 0) return { inputs: [], issues: [] };
  const root = await realpath(resolve(options.projectDir));
  const files = new Map<string, string>();
  const clips: PageAudioClip[] = [];
  for (const [index, clip] of shared.audio.entries()) {
    const key = `project-file:${index}`;
    if ('file' in clip) {
      const path = await realpath(resolve(root, clip.file)).catch(() => undefined);
      if (path?.startsWith(root + sep)) files.set(key, path);
    }
    clips.push({ ...clip, src: 'file' in clip ? key : clip.url });
  }
  const unsafe = options.unsafeAllowPrivateNetwork ?? false;
  // No project server here: the empty origin matches no URL, so nothing reaches the project over HTTP.
  const network = new RenderNetworkPolicy('', unsafe);
  const proxy = unsafe ? undefined : await startEgressProxy(network);
  if (proxy) cleanups.push(() => proxy.close());
  return audioInputs(clips, { localFile: async (src) => files.get(src) }, shared.duration, {
    network,
    proxy: proxy?.origin,
    signal: watch.halted,
  });
}

/**
 * Frame `index` of the joined file as the thumbnail: JPEG (BT.709 limited → full-range JFIF) or, for the alpha
 * formats, PNG with its alpha (VP9 alpha decodes only with libvpx).
 */
function thumbnailArgs(video: string, format: string, preset: EncoderPreset, index: number, output: string): string[] {
  const convert =
    preset.image === 'png'
      ? 'scale=in_color_matrix=bt709:in_range=tv,format=rgba'
      : 'scale=in_color_matrix=bt709:in_range=tv:out_color_matrix=bt601:out_range=pc,format=yuvj420p';
  return [
    ...(format === 'webm' ? ['-c:v', 'libvpx-vp9'] : []),
    ...['-i', `file:${video}`, '-vf', `select=eq(n\\,${index}),${convert}`, '-frames:v', '1'],
    ...(preset.image === 'png' ? ['-c:v', 'png'] : ['-c:v', 'mjpeg', '-q:v', '2']),
    ...['-f', 'image2', '-update', '1', output],
  ];
}
