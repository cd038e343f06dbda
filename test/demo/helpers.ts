// Shared by the demo's end-to-end tests in Chromium: `npm start` (npm-start.ts) and a Chromium to open it, and reads
// of what the page shows.
import { chromium, type Browser, type Page } from 'playwright-core';
import { BrowserExecutable, COMMON_FLAGS } from '../../src/render/chromium.js';
import { startDemoServer, type DemoServer } from './npm-start.js';

export interface Demo extends DemoServer {
  readonly browser: Browser;
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

/** Starts `npm start` and a Chromium; resolves once the page and the service both listen. */
export async function startDemo(screen?: DemoScreen): Promise<Demo> {
  const server = await startDemoServer();
  const screenFlags = screen
    ? [`--window-size=${screen.width},${screen.height}`, `--force-device-scale-factor=${screen.deviceScaleFactor}`]
    : [];
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: BrowserExecutable.chromium(),
      args: [...COMMON_FLAGS, ...screenFlags],
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    ...server,
    browser,
    async stop() {
      await browser.close();
      await server.stop();
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
