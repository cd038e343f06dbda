import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { CdpConnection } from './cdp.js';
import { BEGIN_FRAME_FLAGS, BrowserExecutable, COMMON_FLAGS, egressProxyFlags } from './chromium.js';
import { startEgressProxy, type EgressProxy } from './network/egress-proxy.js';
import { RenderErrorCode, renderError } from './errors.js';
import type { RenderNetworkPolicy } from './network/policy.js';
import { BrowserPage } from './page.js';
import { createProfileDir } from './profile-dirs.js';
import { guardRequests } from './network/request-guard.js';
import type { RenderWatch } from './watch.js';
import type { CaptureMode } from './types.js';

const STDERR_TAIL_BYTES = 4096;
const EXIT_REPORT_DELAY_MS = 1000;

export interface LaunchOptions {
  readonly mode: Exclude<CaptureMode, 'auto'>;
  /** Device pixels per CSS pixel (`--force-device-scale-factor`; the BeginFrame path honours nothing else). */
  readonly scale: number;
  readonly watch: RenderWatch;
  /** What the browser may load; enforced from before the first page opens. */
  readonly network: RenderNetworkPolicy;
}

/**
 * One browser process spawned directly (never through a wrapper script), in its own process group with a fresh
 * profile, driven over `--remote-debugging-pipe`, every request held until the render's network policy allowed
 * it and sent out through its own egress proxy. An unexpected exit fails the render with `browser_crashed`;
 * `close()` kills the whole group, stops the proxy and removes the profile.
 */
export class BrowserProcess {
  #stderr = '';
  #closing = false;
  readonly exited: Promise<void>;

  private constructor(
    readonly mode: Exclude<CaptureMode, 'auto'>,
    readonly cdp: CdpConnection,
    private readonly child: ChildProcess,
    private readonly profileDir: string,
    private readonly watch: RenderWatch,
    private readonly proxy: EgressProxy | undefined,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const reportExit = (code: number | null, signal: NodeJS.Signals | null) => {
      cdp.close('the browser exited');
      if (!this.#closing)
        watch.fail(
          renderError(
            RenderErrorCode.browserCrashed,
            `the browser exited unexpectedly (${signal ?? `code ${code}`})${this.stderrTail()}`,
          ),
        );
    };
    // 'close' comes once stderr was read to the end, so the report carries the browser's last words; a helper
    // process still holding stderr open must not delay the report for long.
    child.once('close', reportExit);
    child.once('exit', (code, signal) => setTimeout(() => reportExit(code, signal), EXIT_REPORT_DELAY_MS).unref());
    cdp.on((event) => {
      if (event.method === 'Inspector.targetCrashed' || event.method === 'Target.targetCrashed') {
        watch.fail(renderError(RenderErrorCode.browserCrashed, `the page crashed while rendering${this.stderrTail()}`));
      }
    });
  }

  static async launch({ mode, scale, watch, network }: LaunchOptions): Promise<BrowserProcess> {
    watch.check();
    const executable = mode === 'begin-frame' ? BrowserExecutable.headlessShell() : BrowserExecutable.chromium();
    if (!existsSync(executable)) {
      throw renderError(
        RenderErrorCode.browserNotFound,
        `no browser at "${executable}" for capture "${mode}"; install Debian's ${mode === 'begin-frame' ? 'chromium-headless-shell' : 'chromium'} package`,
      );
    }
    const proxy = network.unsafeAllowPrivateNetwork ? undefined : await startEgressProxy(network);
    let profileDir: string | undefined;
    try {
      profileDir = await createProfileDir();
      // Another worker may have failed the render meanwhile: start no browser for nothing then.
      watch.check();
    } catch (error) {
      await proxy?.close();
      if (profileDir) await rm(profileDir, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
    const args = [
      '--remote-debugging-pipe',
      `--user-data-dir=${profileDir}`,
      `--force-device-scale-factor=${scale}`,
      ...COMMON_FLAGS,
      ...(proxy ? egressProxyFlags(proxy.origin, network.projectOrigin) : []),
      ...(mode === 'begin-frame' ? BEGIN_FRAME_FLAGS : ['--headless']),
      'about:blank',
    ];
    const child = spawn(executable, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
    const cdp = new CdpConnection(child.stdio[3] as Writable, child.stdio[4] as Readable);
    const browser = new BrowserProcess(mode, cdp, child, profileDir, watch, proxy);
    child.once('error', (error) =>
      watch.fail(renderError(RenderErrorCode.browserCrashed, `the browser could not start: ${error.message}`, error)),
    );
    try {
      await watch.step('starting the browser', cdp.send('Browser.getVersion'));
      if (proxy) {
        watch.check();
        await watch.step('starting the browser', guardRequests(cdp, network));
      }
    } catch (error) {
      await browser.close();
      throw error;
    }
    return browser;
  }

  stderrTail(): string {
    const tail = this.#stderr.trim().split('\n').slice(-5).join('\n');
    return tail ? `; browser output: ${tail}` : '';
  }

  /** A new tab at about:blank, under frame control on the BeginFrame path. */
  async newPage(
    viewport: { width: number; height: number },
    scale: number,
    transparent: boolean,
  ): Promise<BrowserPage> {
    const { targetId } = await this.watch.step(
      'opening a page',
      this.cdp.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
        ...(this.mode === 'begin-frame' ? { enableBeginFrameControl: true } : {}),
      }),
    );
    const { sessionId } = await this.watch.step(
      'opening a page',
      this.cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true }),
    );
    const page = new BrowserPage(this.cdp, sessionId, this.mode, this.watch);
    await page.prepare(viewport, scale, transparent);
    return page;
  }

  /** Kills the browser's process group, stops its proxy and removes its profile. Safe to call more than once. */
  async close(): Promise<void> {
    this.#closing = true;
    this.cdp.close('the browser was closed');
    if (this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        this.child.kill('SIGKILL');
      }
      // The timer must not keep Node alive once the browser is gone.
      await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    }
    await this.proxy?.close();
    await rm(this.profileDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}
