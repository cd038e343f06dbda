// Shared by the demo's end-to-end tests: `npm start` (with --no-build: npm test built dist/ already) on free ports
// with its own service data, a Chromium to open it, and reads of what the page shows.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BrowserExecutable, COMMON_FLAGS } from '../../src/render/chromium.js';
import { freePort } from '../service/helpers/oauth-flow.js';
import { tempDir } from '../render/helpers.js';

export interface Demo {
  readonly url: string;
  readonly browser: Browser;
  /** Where files written by a test go (removed by `stop`). */
  readonly dir: string;
  stop(): Promise<void>;
}

/**
 * A browser window of this size at this many device pixels per CSS pixel, for real (open pages with
 * `viewport: null`). Playwright's `deviceScaleFactor` is emulated for the page's own process only: the
 * composition's out-of-process frame then paints at 1× and is scaled up, softer than any real screen shows it.
 */
export interface DemoScreen {
  readonly width: number;
  readonly height: number;
  readonly deviceScaleFactor: number;
}

/** Starts `scripts/start.mjs --no-build` and a browser; resolves once the page and the service both listen. */
export async function startDemo(screen?: DemoScreen): Promise<Demo> {
  const dir = await tempDir('fx-demo-test-');
  const [port, servicePort] = [await freePort(), await freePort()];
  const start: ChildProcess = spawn('node', ['scripts/start.mjs', '--no-build'], {
    env: {
      ...process.env,
      PORT: String(port),
      FX_SERVICE_PORT: String(servicePort),
      FX_SERVICE_DATA_DIR: join(dir.path, 'service'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /fx demo:\s+(\S+)/.exec(output)?.[1];
      // Ready once the service is listening too.
      if (found && /render service listening/.test(output)) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    start.stdout!.on('data', read);
    start.stderr!.on('data', read);
    start.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  const screenFlags = screen
    ? [`--window-size=${screen.width},${screen.height}`, `--force-device-scale-factor=${screen.deviceScaleFactor}`]
    : [];
  const browser = await chromium.launch({
    executablePath: BrowserExecutable.chromium(),
    args: [...COMMON_FLAGS, ...screenFlags],
  });
  return {
    url,
    browser,
    dir: dir.path,
    async stop() {
      await browser.close();
      start.kill('SIGTERM');
      await dir.cleanup();
    },
  };
}

/** The preview element as the page scripts it. */
export type Preview = HTMLElement & {
  ready: boolean;
  src: string;
  variables: Record<string, unknown>;
  pause(): void;
  seek(t: number): Promise<number>;
  controls: boolean;
  metadata: { id?: string } | undefined;
};

/** Text of the first `selector` in any frame of the preview (a reload briefly has two). */
export async function frameTexts(page: Page, selector: string): Promise<(string | null)[]> {
  const frames = page.frames().filter((frame) => frame.parentFrame() === page.mainFrame());
  return Promise.all(
    frames.map((frame) =>
      frame
        .locator(selector)
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => null),
    ),
  );
}

/** Waits until the preview's frame shows `text` in `selector`. */
export async function untilFrameShows(page: Page, selector: string, text: string): Promise<void> {
  for (let tries = 0; !(await frameTexts(page, selector)).includes(text); tries++) {
    if (tries > 50) throw new Error(`the frame never showed ${JSON.stringify(text)} in ${selector}`);
    await page.waitForTimeout(100);
  }
}
