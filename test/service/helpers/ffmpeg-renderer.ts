/**
 * A test double of the renderer for the service tests: a real, small video made by FFmpeg's test source, with
 * the frame count the composition's duration asks for (a range's frames; a still: one image; a GIF made by FFmpeg's
 * palette filters, looping or not), real progress and real cancellation. (The real renderer
 * is tested end to end elsewhere.) A composition containing `data-test-fail` fails with code `composition_broken`.
 */
import '../../../src/runtime/dom-parser.node.js';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderFunction, RenderOptions, RenderResult } from '../../../src/render/types.js';
import { extractCompositionMetadata } from '../../../src/runtime/metadata.js';
import { outputFrames } from '../../../src/wire/frames.js';
import { ALPHA_FORMATS, isStillFormat } from '../../../src/wire/render-request.js';

export const TEST_VIDEO = { width: 160, height: 90 } as const;
export const FAIL_MARKER = 'data-test-fail';
/** A composition containing this renders, reporting a compile issue it worked around. */
export const ISSUE_MARKER = 'data-test-issue';
export const WORKED_AROUND = {
  code: 'sub_composition_missing',
  severity: 'warning',
  path: ['scene.html'],
  message: 'sub-composition "scene.html" is missing; left empty',
} as const;

const CODEC_ARGS: Record<RenderOptions['format'], string[]> = {
  mp4: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  webm: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-pix_fmt', 'yuva420p'],
  mov: ['-c:v', 'prores_ks', '-profile:v', '4444', '-pix_fmt', 'yuva444p10le'],
  // One palette over all frames, as the real renderer makes it.
  gif: ['-filter_complex', '[0:v]split[a][b];[a]palettegen[p];[b][p]paletteuse=dither=bayer', '-f', 'gif'],
  png: ['-pix_fmt', 'rgba', '-f', 'image2', '-update', '1'],
  jpeg: ['-pix_fmt', 'yuvj420p', '-f', 'image2', '-update', '1'],
  webp: ['-c:v', 'libwebp', '-pix_fmt', 'yuva420p', '-f', 'webp'],
};
/**
 * The test source: `frames` frames of `testsrc` (opaque), with an alpha channel for the formats that keep one. It
 * ends (not only the output): a GIF's palette is made once its input ended.
 */
const source = (fps: number, frames: number, alpha: boolean) =>
  `testsrc=size=${TEST_VIDEO.width}x${TEST_VIDEO.height}:rate=${fps},trim=end_frame=${frames}${alpha ? ',format=rgba,colorchannelmixer=aa=0.5' : ''}`;

export interface FfmpegRendererOptions {
  /** Produce frames at their real rate (a 3 s composition takes 3 s), for crash and cancellation tests. */
  readonly realtime?: boolean;
  /** Called with the options of every render started. */
  readonly onStart?: (options: RenderOptions) => void;
}

function ffmpeg(
  args: string[],
  signal: AbortSignal | undefined,
  onLine: (line: string) => void = () => {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      lines.forEach(onLine);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) reject(signal.reason);
      else if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`));
    });
  });
}

export function createFfmpegRenderer(settings: FfmpegRendererOptions = {}): RenderFunction {
  return async (options: RenderOptions): Promise<RenderResult> => {
    settings.onStart?.(options);
    const html = await readFile(join(options.projectDir, options.composition), 'utf8');
    const duration = extractCompositionMetadata(html).duration ?? 1;
    // The frames the real renderer outputs, by the same rule (a range's, a still's one), or its refusal.
    const planned = outputFrames(duration, options.fps, {
      format: options.format,
      time: options.time,
      thumbnail_time: options.thumbnailTime,
      range: options.range,
    });
    if ('problem' in planned) throw Object.assign(new Error(planned.problem.message), { code: planned.problem.code });
    const { from, to, thumbnail } = planned.frames;
    const frames = to - from;
    const still = isStillFormat(options.format);
    options.onProgress?.({ stage: 'compiling', framesDone: 0, framesTotal: frames });
    if (html.includes(FAIL_MARKER))
      throw Object.assign(new Error('the composition is broken on purpose'), { code: 'composition_broken' });
    await ffmpeg(
      [
        ...(settings.realtime ? ['-re'] : []),
        '-f',
        'lavfi',
        '-i',
        source(options.fps, frames, ALPHA_FORMATS.has(options.format)),
        '-frames:v',
        String(frames),
        ...CODEC_ARGS[options.format],
        ...(options.format === 'gif' ? ['-loop', options.loop === false ? '-1' : '0'] : []),
        '-progress',
        'pipe:1',
        '-nostats',
        options.outputPath,
      ],
      options.signal,
      (line) => {
        const done = /^frame=(\d+)/.exec(line);
        if (done) options.onProgress?.({ stage: 'capturing', framesDone: Number(done[1]), framesTotal: frames });
      },
    );
    // Like the real renderer: a still is its own thumbnail; a PNG thumbnail for the formats with alpha, else a
    // JPEG, of the thumbnail's frame.
    const thumbnailPath = still
      ? options.outputPath
      : options.outputPath.replace(/\.\w+$/, ALPHA_FORMATS.has(options.format) ? '.png' : '.jpg');
    if (!still) {
      const select = `select=eq(n\\,${thumbnail - from})`;
      await ffmpeg(['-i', options.outputPath, '-vf', select, '-frames:v', '1', thumbnailPath], options.signal);
    }
    options.onProgress?.({ stage: 'done', framesDone: frames, framesTotal: frames });
    const issues = html.includes(ISSUE_MARKER) ? [WORKED_AROUND] : undefined;
    return {
      videoPath: options.outputPath,
      thumbnailPath,
      width: TEST_VIDEO.width,
      height: TEST_VIDEO.height,
      fps: options.fps,
      frames,
      duration: still ? 0 : frames / options.fps,
      start: from / options.fps,
      issues,
    };
  };
}
