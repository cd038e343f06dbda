// The browsers the app checks (checks.mjs) run in, behind one small interface: Chromium through Playwright, and
// WebKitGTK (MiniBrowser) through WebDriver classic with webdriverio, the way the WebKit browser suite drives it.
// A page offers: goto, evaluate (in the page, or in the frame on stage of the composition a function finds), click
// and fill (real input events), fillLabelled (a labelled field in a shadow root), fxErrors, console (the
// `errors` and lit dev-mode `litNotices` it showed; undefined where the driver reads no console), and close.
// A composition is named by a selector (its first match) or by `{ for: selector }` (see frameOnStage).
import { chromium } from 'playwright-core';
import { remote } from 'webdriverio';
import { chromiumFlags, chromiumPath } from '../../../scripts/chromium.mjs';
import { startWebKitDriver, webKitCapabilities } from '../../../scripts/webkit.mjs';

/**
 * In the page: the iframe on stage (not a reload's incoming one) of a composition: the first matching `target` (a
 * selector), or the one that the element matching `target.for` names in its `for` (the property: React and Vue may
 * set it without the attribute).
 */
function frameOnStage(target) {
  const host =
    typeof target === 'string'
      ? document.querySelector(target)
      : document.getElementById(document.querySelector(target.for)?.for);
  return host?.shadowRoot?.querySelector('iframe:not(.incoming)') ?? null;
}

/** In a shadow root: the field labelled `label` exactly (a `<label>`'s control or an `aria-label`). */
function fieldLabelled(hostSelector, label) {
  const root = document.querySelector(hostSelector)?.shadowRoot;
  if (!root) return null;
  for (const element of root.querySelectorAll('label'))
    if (element.textContent.trim() === label && element.control) return element.control;
  return root.querySelector(`[aria-label="${CSS.escape(label)}"]`);
}

/** Chromium: `open()` gives a page in a fresh context; console errors and every fx `error` event are recorded. */
export async function chromiumBrowser() {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumFlags });
  return {
    name: 'Chromium',
    async open() {
      const context = await browser.newContext();
      const page = await context.newPage();
      // Every `error` event an fx element fires, also those fired before the app's own listener was attached (a
      // capturing listener on window sees events that do not bubble).
      await page.addInitScript(() => {
        window.__fxErrors = [];
        const record = (event) => {
          if (event.target?.localName?.startsWith('fx-'))
            window.__fxErrors.push(`${event.detail?.code}: ${event.detail?.message}`);
        };
        window.addEventListener('error', record, true);
      });
      const consoleErrors = [];
      const litNotices = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
        // React, Vue and Svelte report a hydration mismatch as a warning in some builds, as an error in others.
        else if (message.type() === 'warning' && /hydrat/i.test(message.text())) consoleErrors.push(message.text());
        if (message.text().includes('Lit is in dev mode')) litNotices.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(String(error)));
      return {
        goto: (url) => page.goto(url),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        async evaluateInFrame(target, fn) {
          const iframe = await page.evaluateHandle(frameOnStage, target);
          const frame = await iframe.asElement()?.contentFrame();
          return frame ? frame.evaluate(fn) : undefined;
        },
        click: (selector) => page.click(selector),
        fill: (selector, text) => page.fill(selector, text),
        fillLabelled: (hostSelector, label, text) =>
          page.locator(hostSelector).getByLabel(label, { exact: true }).fill(text),
        fxErrors: () => page.evaluate(() => window.__fxErrors),
        console: () => ({ errors: consoleErrors, litNotices }),
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}

/**
 * WebKitGTK: one MiniBrowser session (a private Xvfb and WebKitWebDriver), one page at a time (callers take turns
 * through `open`). WebDriver classic reads no console: `console()` is undefined; fx errors come from each
 * element's `errors` (every `error` event since its source started loading).
 */
export async function webKitBrowser() {
  const driver = await startWebKitDriver();
  let session;
  try {
    session = await remote({
      hostname: '127.0.0.1',
      port: driver.port,
      capabilities: webKitCapabilities(),
      logLevel: 'error',
    });
  } catch (error) {
    driver.stop();
    throw error;
  }
  let turn = Promise.resolve();
  return {
    name: 'WebKit',
    async open() {
      let release;
      const previous = turn;
      turn = new Promise((resolve) => (release = resolve));
      await previous;
      /** The element `fn(...args)` returns in the page, as webdriverio's element. */
      const elementFor = async (fn, ...args) => {
        const found = await session.execute(fn, ...args);
        return found ? session.$(found) : undefined;
      };
      return {
        goto: (url) => session.url(url),
        evaluate: (fn, arg) => session.execute(fn, arg),
        async evaluateInFrame(target, fn) {
          const iframe = await session.execute(frameOnStage, target);
          if (!iframe) return undefined;
          await session.switchFrame(await session.$(iframe));
          try {
            return await session.execute(fn);
          } finally {
            await session.switchFrame(null);
          }
        },
        click: async (selector) => (await session.$(selector)).click(),
        fill: async (selector, text) => (await session.$(selector)).setValue(text),
        async fillLabelled(hostSelector, label, text) {
          const field = await elementFor(fieldLabelled, hostSelector, label);
          if (!field) throw new Error(`no field labelled ${JSON.stringify(label)} in ${hostSelector}`);
          await field.setValue(text);
        },
        fxErrors: () =>
          session.execute(() =>
            [...document.querySelectorAll('*')]
              .filter((element) => element.localName.startsWith('fx-') && Array.isArray(element.errors))
              .flatMap((element) => element.errors.map((detail) => `${detail.code}: ${detail.message}`)),
          ),
        console: () => undefined,
        async close() {
          await session.url('about:blank').catch(() => undefined);
          release();
        },
      };
    },
    async close() {
      await session.deleteSession().catch(() => undefined);
      driver.stop();
    },
  };
}
