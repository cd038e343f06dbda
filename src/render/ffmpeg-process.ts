import { spawn, type ChildProcess } from 'node:child_process';
import { executable, ExecutableEnv } from './executables.js';
import { RenderErrorCode, renderError } from './errors.js';

const STDERR_TAIL_BYTES = 4096;

/** The FFmpeg executable: `FX_FFMPEG` if set, else `ffmpeg` on the PATH. */
export const ffmpegPath = () => executable('ffmpeg');

/**
 * One FFmpeg run: its stdin for frames, a tail of its stderr for error messages, and `done`, which resolves on
 * exit code 0 and rejects with `ffmpeg_failed` (stderr tail in the message) or `ffmpeg_not_found` otherwise.
 */
export class FfmpegProcess {
  readonly done: Promise<void>;
  #stderr = '';
  #killed = false;
  private readonly child: ChildProcess;

  constructor(
    args: readonly string[],
    private readonly what: string,
  ) {
    // Without frames on stdin, `-nostdin` keeps FFmpeg from reading keyboard commands there.
    const stdin = args.includes('pipe:0') ? [] : ['-nostdin'];
    this.child = spawn(ffmpegPath(), ['-hide_banner', ...stdin, '-loglevel', 'error', '-y', ...args], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // A broken pipe is reported through the exit status; without a listener it would be an uncaught error.
    this.child.stdin?.on('error', () => undefined);
    this.done = new Promise<void>((resolve, reject) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'ENOENT'
            ? renderError(
                RenderErrorCode.ffmpegNotFound,
                `"${ffmpegPath()}" was not found; install Debian's ffmpeg package or set ${ExecutableEnv.ffmpeg}`,
                error,
              )
            : renderError(RenderErrorCode.ffmpegFailed, `${what}: FFmpeg could not start: ${error.message}`, error),
        );
      });
      this.child.once('close', (code, signal) => {
        if (code === 0) return resolve();
        const how = this.#killed ? 'was stopped' : signal ? `was killed (${signal})` : `exited with code ${code}`;
        reject(renderError(RenderErrorCode.ffmpegFailed, `${what}: FFmpeg ${how}${this.stderrTail()}`));
      });
    });
    this.done.catch(() => undefined);
  }

  stderrTail(): string {
    const tail = this.#stderr.trim().split('\n').slice(-8).join('\n');
    return tail ? `: ${tail}` : '';
  }

  /** Writes one chunk to stdin, waiting while the pipe is full (backpressure). */
  async write(chunk: Buffer): Promise<void> {
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) {
      // FFmpeg closed its input because it is exiting: its exit status and whole stderr say why, not the pipe.
      await this.done;
      throw renderError(RenderErrorCode.ffmpegFailed, `${this.what}: FFmpeg closed its input${this.stderrTail()}`);
    }
    if (stdin.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const settle = () => {
        stdin.off('drain', settle);
        stdin.off('close', settle);
        resolve();
      };
      stdin.once('drain', settle);
      stdin.once('close', settle);
    });
  }

  /** Closes stdin and waits for FFmpeg to finish. */
  async finish(): Promise<void> {
    this.child.stdin?.end();
    await this.done;
  }

  /** Kills FFmpeg; resolves once it is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.#killed = true;
    this.child.kill('SIGKILL');
    await this.done.catch(() => undefined);
  }
}
