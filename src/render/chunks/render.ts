import { mkdir, realpath, rename } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Issue } from '../../runtime/issues.js';
import { readPageAudio } from '../audio.js';
import type { FrameRange } from './plan.js';
import { chunkLabel } from './probe.js';
import { RenderErrorCode, renderError } from '../errors.js';
import { renderOutputFrames } from '../output-frames.js';
import { encodeRange, runRender, tempPaths, type StartedRender } from '../render.js';
import { VIDEO_FORMATS } from '../../wire/render-request.js';
import type { CaptureMode, RenderFormat, RenderOptions, RenderQuality } from '../types.js';

/** One audio clip of the timeline, portable between machines: a file of the project (relative path) or a URL. */
export type TimelineAudioClip = {
  readonly tag: string;
  readonly start: number;
  readonly end: number;
  readonly volume: number;
} & ({ readonly file: string } | { readonly url: string });

/** `render`'s options plus the frames of this chunk; `outputPath` is the chunk's own video file. */
export interface ChunkOptions extends RenderOptions {
  readonly chunk: FrameRange;
}

/**
 * A rendered chunk: its file, its frames, and what the join needs of the whole render (the same for every chunk
 * of one render: JSON, so a service can store it with the chunk's job).
 */
export interface ChunkResult extends FrameRange {
  /** The chunk file; a service that moves it to the joining machine sets `path` to where it is there. */
  readonly path: string;
  readonly format: RenderFormat;
  readonly quality: RenderQuality;
  readonly fps: number;
  readonly width: number;
  readonly height: number;
  /** Frames of the whole composition. */
  readonly frames: number;
  /** The composition's `data-duration`: the mixed audio is padded or cut to it, as in `render`. */
  readonly duration: number;
  /**
   * The frames the whole render outputs, [from, to): all of them, or those of its `range` (src/wire/frames.ts);
   * the chunks tile these. Absent in results of renderers older than ranges: all frames.
   */
  readonly output?: FrameRange;
  /** The frame of the render's thumbnail (its `thumbnailTime`, or the default rule over `output`). */
  readonly thumbnail?: number;
  /** The timeline's audio clips, read from the runtime; mixed once, by `joinChunks`. */
  readonly audio: readonly TimelineAudioClip[];
  /** Compile, binding and network problems that did not stop the chunk. */
  readonly issues: readonly Issue[];
  readonly capture: Exclude<CaptureMode, 'auto'>;
}

function checkChunkOption(chunk: unknown): FrameRange {
  const { from, to } = (typeof chunk === 'object' && chunk !== null ? chunk : {}) as Partial<FrameRange>;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from! < 0 || to! <= from!) {
    throw renderError(
      RenderErrorCode.chunkRangesInvalid,
      `"chunk" must be { from, to } with integers 0 ≤ from < to, got ${JSON.stringify(chunk) ?? String(chunk)}`,
    );
  }
  return { from: from!, to: to! };
}

/**
 * Renders frames [from, to) of a composition to a video file of their own, without audio and without a
 * thumbnail, for {@link joinChunks}. A chunk is a pure function of its options: any machine with the same project
 * and options makes the same file, and the file appears at `outputPath` only once complete (written under a temp
 * name, then renamed), so a failed chunk is simply rendered again. Every chunk's encoder starts fresh: the file
 * opens with a keyframe and no frame refers to another chunk.
 *
 * @example
 * const plan = planChunks(frames, 2);
 * const chunks = await Promise.all(plan.map((range) => renderChunk({ ...options, chunk: range, outputPath: `c${range.index}.mp4` })));
 */
export async function renderChunk(options: ChunkOptions): Promise<ChunkResult> {
  const range = checkChunkOption(options?.chunk);
  if (!(VIDEO_FORMATS as readonly unknown[]).includes(options.format)) {
    // A GIF's palette is made over all its frames and a still is one frame: neither is joined from parts.
    throw renderError(
      RenderErrorCode.optionInvalid,
      `"format" of a chunked render must be one of ${VIDEO_FORMATS.join(', ')}, got ${JSON.stringify(options.format)}: render GIFs and stills whole`,
    );
  }
  return await runRender(options, (started) => renderChecked(options, range, started));
}

async function renderChecked(options: ChunkOptions, range: FrameRange, started: StartedRender): Promise<ChunkResult> {
  const { checked, watch, report, prepared, network } = started;
  const { compiled, geometry, frames } = prepared;
  const output = renderOutputFrames(checked, compiled.duration);
  if (range.from < output.from || range.to > output.to) {
    const what = checked.range
      ? `the "range" is frames ${output.from}–${output.to}`
      : `the composition has ${frames} frames`;
    throw renderError(
      RenderErrorCode.chunkRangesInvalid,
      `"chunk" frames ${range.from}–${range.to} are outside what the render outputs: ${what}`,
    );
  }
  const audio = await watch.step('reading audio clips', timelineAudio(started));
  const outputPath = resolve(options.outputPath);
  await mkdir(dirname(outputPath), { recursive: true });
  const temp = tempPaths(started, outputPath, ['chunk']);
  // No +faststart: the join writes the final file's index. The label lets the join refuse a misplaced file.
  await encodeRange(started, range, temp.chunk, ['-metadata', `comment=${chunkLabel(range.from, range.to, frames)}`]);
  watch.check();
  await rename(temp.chunk, outputPath);
  report('done', range.to - range.from, range.to - range.from);
  return {
    path: outputPath,
    from: range.from,
    to: range.to,
    format: checked.format,
    quality: checked.quality,
    fps: checked.fps,
    width: geometry.width,
    height: geometry.height,
    frames,
    duration: compiled.duration,
    output: { from: output.from, to: output.to },
    thumbnail: output.thumbnail,
    audio,
    issues: [...compiled.issues, ...prepared.bindingIssues, ...network.issues()],
    capture: started.mode,
  };
}

/** The page's audio clips with project files as project-relative paths (the join may run on another machine). */
async function timelineAudio({ prepared, server, projectDir }: StartedRender): Promise<TimelineAudioClip[]> {
  const root = await realpath(projectDir);
  const clips = await readPageAudio(prepared.workers[0]!.page);
  return Promise.all(
    clips.map(async ({ src, tag, start, end, volume }) => {
      const local = await server.localFile(src);
      const file = local && relative(root, local).split(sep).join('/');
      return file ? { tag, start, end, volume, file } : { tag, start, end, volume, url: src };
    }),
  );
}
