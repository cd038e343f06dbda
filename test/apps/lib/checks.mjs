// The checks each app passes in Chromium: ready, a live variable change visible in the frame, no failed request,
// no console error (nor a hydration warning), no lit dev-mode notice, and no event loop once idle. A `bound` page
// (the server-rendered apps) also shows its bound `#headline` input's initial value in the frame at `ready`, writes
// what its `ready` and `error` listeners heard into `#ready-seen` and `#error-seen`, and passes typing on live.
const READY_MS = 20_000;
const IDLE_MS = 3000;
/** At most this many `variableschange` events while nobody changes anything (the change itself may still land). */
export const MAX_IDLE_EVENTS = 2;

/**
 * Runs the checks on `url`; `failures` is the server's record of 4xx/5xx answers; `bound` adds the bound-input
 * checks. Returns `{ name: true | string }`.
 */
export async function checkApp(browser, url, failures, { bound = false } = {}) {
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
  const results = {};
  const check = async (name, run) => {
    try {
      const outcome = await run();
      results[name] = outcome === undefined ? true : outcome;
    } catch (error) {
      results[name] = String(error?.message ?? error).split('\n')[0];
    }
  };
  try {
    await page.goto(url);
    await check('ready', () =>
      page
        .waitForFunction(() => document.querySelector('fx-composition')?.ready === true, null, { timeout: READY_MS })
        .then(() => undefined),
    );
    const headline = async () =>
      (await compositionFrame(page))?.evaluate(() => document.querySelector('[data-var-text="headline"]')?.textContent);
    /** Resolves once the frame shows `text`; throws what it showed instead after `ms`. */
    const frameShows = async (text, ms = 5000) => {
      const deadline = Date.now() + ms;
      let seen;
      while (Date.now() < deadline) {
        seen = await headline().catch(() => undefined);
        if (seen === text) return;
        await page.waitForTimeout(100);
      }
      throw new Error(`the frame shows ${JSON.stringify(seen)}, not ${JSON.stringify(text)}`);
    };
    if (bound) {
      // Read at once: `ready` promises the values in effect, and the bound one was set before (SSR, then hydration).
      await check('initial value', async () => {
        const initial = await page.inputValue('#headline');
        const seen = await headline();
        if (seen === initial) return;
        const later = await frameShows(initial, 3000).then(
          () => 'it does 3 s later',
          () => 'nor 3 s later',
        );
        throw new Error(`at ready the frame shows ${JSON.stringify(seen)}, not ${JSON.stringify(initial)} (${later})`);
      });
      await check('ready handler ran', async () => {
        const seen = await page
          .waitForFunction(() => document.querySelector('#ready-seen')?.textContent === 'yes', null, { timeout: 2000 })
          .then(
            () => 'yes',
            () => page.textContent('#ready-seen'),
          );
        if (seen !== 'yes') throw new Error(`#ready-seen shows ${JSON.stringify(seen)} 2 s after ready`);
      });
      await check('no error event', async () => {
        const heard = await page.textContent('#error-seen');
        const fired = await page.evaluate(() => window.__fxErrors);
        if (heard || fired.length > 0) {
          throw new Error(
            `the element fired ${JSON.stringify(fired)}; the app's listener heard ${JSON.stringify(heard)}`,
          );
        }
      });
    }
    await check('live variable change', async () => {
      await page.click('#change');
      await frameShows('Changed live');
    });
    if (bound) {
      await check('typing changes the frame', async () => {
        await page.fill('#headline', 'Typed in the page');
        await frameShows('Typed in the page');
      });
    }
    await check('no event loop', async () => {
      await page.waitForTimeout(500);
      const count = await page.evaluate(
        (ms) =>
          new Promise((resolve) => {
            const element = document.querySelector('fx-composition');
            let events = 0;
            const count = () => events++;
            element.addEventListener('variableschange', count);
            setTimeout(() => (element.removeEventListener('variableschange', count), resolve(events)), ms);
          }),
        IDLE_MS,
      );
      if (count > MAX_IDLE_EVENTS) throw new Error(`${count} "variableschange" events in ${IDLE_MS / 1000} s idle`);
    });
    // Where the app has a panel: typing into its field reaches the composition it is bound to, live.
    if (await page.locator('fx-variables-panel').count()) {
      await check('panel edits live', async () => {
        await page.getByLabel('Headline', { exact: true }).fill('From the panel');
        const deadline = Date.now() + 10_000;
        let seen;
        while (Date.now() < deadline) {
          // Asked afresh each time: the bound composition may still be loading, or swap frames.
          const frame = await boundFrame(page, 'fx-variables-panel');
          seen = await frame
            ?.evaluate(() => document.querySelector('[data-var-text="headline"]')?.textContent)
            .catch(() => undefined);
          if (seen === 'From the panel') return;
          await page.waitForTimeout(100);
        }
        throw new Error(`the bound frame shows ${JSON.stringify(seen)}, not "From the panel"`);
      });
    }
    await check('no failed requests', () => {
      if (failures.length > 0) throw new Error(failures.join(', '));
    });
    await check('no console errors', () => {
      if (consoleErrors.length > 0) throw new Error(consoleErrors.join(' | '));
    });
    // An app's development build resolves lit's development build; its notice is about fx, not the app.
    await check('no lit dev-mode notice', () => {
      if (litNotices.length > 0) throw new Error(litNotices[0]);
    });
  } finally {
    await context.close();
  }
  return results;
}

/** The frame on stage (not a reload's incoming one) of the `<fx-composition>` that `find(arg)` returns in the page. */
async function frameOnStage(page, find, arg) {
  const composition = await page.evaluateHandle(find, arg);
  const iframe = await composition.evaluateHandle(
    (element) => element?.shadowRoot?.querySelector('iframe:not(.incoming)') ?? null,
  );
  return (await iframe.asElement()?.contentFrame()) ?? undefined;
}

/**
 * The frame on stage of the page's first `<fx-composition>` (the one the app binds values to): the page may hold
 * others, whose frames can attach first (or again, after a reload).
 */
const compositionFrame = (page) => frameOnStage(page, () => document.querySelector('fx-composition'));

/**
 * The frame on stage of the `<fx-composition>` that the element matching `selector` names in its `for`, if any yet
 * (the property: React and Vue may set it without the attribute).
 */
const boundFrame = (page, selector) =>
  frameOnStage(page, (selector) => document.getElementById(document.querySelector(selector).for), selector);
