/**
 * A test double of the renderer for the service tests: a real, small video made by FFmpeg's test source, with
 * the frame count the composition's duration asks for, real progress and real cancellation. (The real renderer
 * is tested end to end elsewhere.) A composition containing `data-test-fail` fails with code `composition_broken`.
 */
import '../../../src/runtime/dom-parser.node.js';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderFunction, RenderOptions, RenderResult } from '../../../src/render/types.js';
import { extractCompositionMetadata } from '../../../src/runtime/metadata.js';

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
};

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
    const frames = Math.max(1, Math.round(duration * options.fps));
    options.onProgress?.({ stage: 'compiling', framesDone: 0, framesTotal: frames });
    if (html.includes(FAIL_MARKER))
      throw Object.assign(new Error('the composition is broken on purpose'), { code: 'composition_broken' });
    const source = `testsrc=size=${TEST_VIDEO.width}x${TEST_VIDEO.height}:rate=${options.fps}`;
    await ffmpeg(
      [
        ...(settings.realtime ? ['-re'] : []),
        '-f',
        'lavfi',
        '-i',
        source,
        '-frames:v',
        String(frames),
        ...CODEC_ARGS[options.format],
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
    // Like the real renderer: a PNG thumbnail for the formats with alpha, else a JPEG.
    const thumbnailPath = options.outputPath.replace(/\.\w+$/, options.format === 'mp4' ? '.jpg' : '.png');
    await ffmpeg(['-i', options.outputPath, '-frames:v', '1', thumbnailPath], options.signal);
    options.onProgress?.({ stage: 'done', framesDone: frames, framesTotal: frames });
    const issues = html.includes(ISSUE_MARKER) ? [WORKED_AROUND] : undefined;
    return {
      videoPath: options.outputPath,
      thumbnailPath,
      width: TEST_VIDEO.width,
      height: TEST_VIDEO.height,
      fps: options.fps,
      frames,
      duration: frames / options.fps,
      issues,
    };
  };
}
