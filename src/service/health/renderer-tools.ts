/**
 * Whether the renderer's programs run: the browser its capture mode uses and FFmpeg, each asked for its version.
 * A good answer is kept for a minute (a readiness probe every few seconds would otherwise start them each time); a
 * bad one is asked again at the next probe, so readiness comes back as soon as the program does.
 */
import { execFile } from 'node:child_process';
import { BrowserExecutable, resolveCaptureMode } from '../../render/chromium.js';
import { ffmpegPath } from '../../render/ffmpeg-process.js';
import type { CaptureMode } from '../../render/types.js';

const KEEP_GOOD_MS = 60_000;
const VERSION_TIMEOUT_MS = 5_000;

const runsAt = new Map<string, number>();

/** Resolves when `program args` exits 0 within the timeout; rejects with what went wrong. */
function runs(program: string, args: string[], now: number): Promise<void> {
  const key = `${program} ${args.join(' ')}`;
  if (now - (runsAt.get(key) ?? -Infinity) < KEEP_GOOD_MS) return Promise.resolve();
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: VERSION_TIMEOUT_MS }, (error) => {
      if (error) return reject(new Error(`"${program} ${args.join(' ')}" failed: ${error.message}`));
      runsAt.set(key, now);
      resolve();
    });
  });
}

export function chromiumRuns(capture: CaptureMode = 'auto', now = Date.now()): Promise<void> {
  const executable =
    resolveCaptureMode(capture) === 'begin-frame' ? BrowserExecutable.headlessShell() : BrowserExecutable.chromium();
  return runs(executable, ['--version'], now);
}

export const ffmpegRuns = (now = Date.now()) => runs(ffmpegPath(), ['-version'], now);
