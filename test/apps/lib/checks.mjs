// The checks each app passes in each browser (drivers.mjs): ready, a live variable change visible in the frame, no
// failed request, no error event from an fx element, no console error (nor a hydration warning) where the browser's
// driver reads the console, no lit dev-mode notice, and no event loop once idle. A `bound` page (the
// server-rendered apps) also shows its bound `#headline` input's initial value in the frame at `ready`, writes what
// its `ready` and `error` listeners heard into `#ready-seen` and `#error-seen`, and passes typing on live. With
// `exports`, the page also exports its composition as an mp4 in the page (`exportVideo`), which loads the encoder
// the way this app ships it.
const READY_MS = 20_000;
const IDLE_MS = 3000;
/** Frames per second of the export check: a few frames are enough to prove the encoder loaded and ran. */
const EXPORT_FPS = 5;
/** At most this many `variableschange` events while nobody changes anything (the change itself may still land). */
export const MAX_IDLE_EVENTS = 2;
/** The composition the app binds values to: its first (the page may hold others, whose frames can attach first). */
const BOUND_COMPOSITION = 'fx-composition';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `read` until `accept` holds of its answer or `ms` passed; the last answer. */
async function poll(read, accept, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = await read().catch(() => undefined);
    if (accept(seen) || Date.now() > deadline) return seen;
    await sleep(100);
  }
}

/**
 * Runs the checks on `url` in `browser` (drivers.mjs); `failures` is the server's record of 4xx/5xx answers;
 * `bound` adds the bound-input checks. Returns `{ name: true | string }`.
 */
export async function checkApp(browser, url, failures, { bound = false, exports = false } = {}) {
  const page = await browser.open();
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
    await check('ready', async () => {
      const ready = await poll(
        () => page.evaluate(() => document.querySelector('fx-composition')?.ready === true),
        Boolean,
        READY_MS,
      );
      if (!ready) throw new Error(`not ready after ${READY_MS / 1000} s`);
    });
    const headline = () =>
      page.evaluateInFrame(BOUND_COMPOSITION, () => document.querySelector('[data-var-text="headline"]')?.textContent);
    /** Resolves once the frame shows `text`; throws what it showed instead after `ms`. */
    const frameShows = async (text, ms = 5000) => {
      const seen = await poll(headline, (shown) => shown === text, ms);
      if (seen !== text) throw new Error(`the frame shows ${JSON.stringify(seen)}, not ${JSON.stringify(text)}`);
    };
    const textOf = (selector) => page.evaluate((selector) => document.querySelector(selector)?.textContent, selector);
    /** No fx element fired `error` (nor, on a bound page, did the app's own listener hear one). */
    const noErrorEvent = async () => {
      const heard = bound ? await textOf('#error-seen') : '';
      const fired = await page.fxErrors();
      if (heard || fired.length > 0)
        throw new Error(
          `the element fired ${JSON.stringify(fired)}; the app's listener heard ${JSON.stringify(heard)}`,
        );
    };
    if (bound) {
      // Read at once: `ready` promises the values in effect, and the bound one was set before (SSR, then hydration).
      await check('initial value', async () => {
        const initial = await page.evaluate(() => document.querySelector('#headline').value);
        const seen = await headline();
        if (seen === initial) return;
        const later = await frameShows(initial, 3000).then(
          () => 'it does 3 s later',
          () => 'nor 3 s later',
        );
        throw new Error(`at ready the frame shows ${JSON.stringify(seen)}, not ${JSON.stringify(initial)} (${later})`);
      });
      await check('ready handler ran', async () => {
        const seen = await poll(
          () => textOf('#ready-seen'),
          (text) => text === 'yes',
          2000,
        );
        if (seen !== 'yes') throw new Error(`#ready-seen shows ${JSON.stringify(seen)} 2 s after ready`);
      });
      await check('no error event', noErrorEvent);
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
      await sleep(500);
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
    if (await page.evaluate(() => document.querySelector('fx-variables-panel') !== null)) {
      await check('panel edits live', async () => {
        await page.fillLabelled('fx-variables-panel', 'Headline', 'From the panel');
        // Asked afresh each time: the bound composition may still be loading, or swap frames.
        const read = () =>
          page.evaluateInFrame(
            { for: 'fx-variables-panel' },
            () => document.querySelector('[data-var-text="headline"]')?.textContent,
          );
        const seen = await poll(read, (text) => text === 'From the panel', 10_000);
        if (seen !== 'From the panel')
          throw new Error(`the bound frame shows ${JSON.stringify(seen)}, not "From the panel"`);
      });
    }
    if (exports) {
      await check('exports a video', async () => {
        const exported = await page.evaluate(async (fps) => {
          const element = document.querySelector('fx-composition');
          const { video, frames, duration, codec } = await element.exportVideo({ fps });
          const head = new Uint8Array(await video.slice(4, 8).arrayBuffer());
          return { type: video.type, box: String.fromCharCode(...head), frames, duration, codec, of: element.duration };
        }, EXPORT_FPS);
        const want = { type: 'video/mp4', box: 'ftyp' };
        if (exported.type !== want.type || exported.box !== want.box || !(exported.frames > 0))
          throw new Error(`the export answered ${JSON.stringify(exported)}`);
        if (Math.abs(exported.duration - exported.of) > 1 / EXPORT_FPS)
          throw new Error(`${exported.frames} frames at ${EXPORT_FPS} fps for a ${exported.of} s composition`);
      });
    }
    // After the changes above, where no listener of the app's was there to hear an error.
    if (!bound) await check('no error event', noErrorEvent);
    await check('no failed requests', () => {
      if (failures.length > 0) throw new Error(failures.join(', '));
    });
    // WebDriver classic reads no console: there the fx elements' own error record above stands in.
    const seen = page.console();
    if (seen) {
      await check('no console errors', () => {
        if (seen.errors.length > 0) throw new Error(seen.errors.join(' | '));
      });
      // An app's development build resolves lit's development build; its notice is about fx, not the app.
      await check('no lit dev-mode notice', () => {
        if (seen.litNotices.length > 0) throw new Error(seen.litNotices[0]);
      });
    }
  } finally {
    await page.close();
  }
  return results;
}
