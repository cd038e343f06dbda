// The system Chromium, driven by playwright-core, with the flags this kind of machine needs (scripts/chromium.mjs).
import { chromium } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';

export const BENCH_CHROMIUM_ARGS = ['--headless=new', ...chromiumFlags];

/** Launches Chromium (`$FX_CHROMIUM` or the system install). Close it with `browser.close()`. */
export function launchChromium() {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: BENCH_CHROMIUM_ARGS });
}

/**
 * Opens `url` in a fresh browser context (no shared cache or storage with other benchmarks) and returns
 * `{ page, context }`. Uncaught page errors, console errors and failed
 * responses are passed to `log`, so a broken page is visible.
 */
export async function openPage(browser, url, { log = () => {}, viewport = { width: 1280, height: 720 } } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('pageerror', (error) => log(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') log(`console error: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) log(`HTTP ${response.status()} for ${response.url()}`);
  });
  await page.goto(url);
  return { page, context };
}
