// The checks each app passes in Chromium: ready, a live variable change visible in the frame, no failed request,
// no console error, no lit dev-mode notice, and no event loop once idle.
const READY_MS = 20_000;
const IDLE_MS = 3000;
/** At most this many `variableschange` events while nobody changes anything (the change itself may still land). */
export const MAX_IDLE_EVENTS = 2;

/** Runs the checks on `url`; `failures` is the server's record of 4xx/5xx answers. Returns `{ name: true | string }`. */
export async function checkApp(browser, url, failures) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const consoleErrors = [];
  const litNotices = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
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
    await check('live variable change', async () => {
      await page.click('#change');
      const deadline = Date.now() + 5000;
      let seen;
      while (Date.now() < deadline) {
        seen = await headline().catch(() => undefined);
        if (seen === 'Changed live') return;
        await page.waitForTimeout(100);
      }
      throw new Error(`the frame shows ${JSON.stringify(seen)}, not "Changed live"`);
    });
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
