// The player in WebKitGTK (MiniBrowser over WebDriver classic, under a private Xvfb: scripts/webkit.mjs), measured
// with the same in-page steps (page.mjs) as in Chromium, on our own compositions: load→ready cold (a new WebDriver
// session per load: WebKit automation sessions start with an empty, ephemeral cache) and warm (a fresh element on a
// page that loaded them all), live update→DOM, seeks on their own and in a scrub (and read from the X screen:
// on-screen.mjs), and the animation-frame interval
// of the page and of the composition's frame, which a seek waits on and WebKit's seek budget is counted in (issue
// 28 §3; WebKit throttles a cross-origin frame nobody interacted with to every other frame). Ours only: the peer's
// player is measured in Chromium.
import { remote } from 'webdriverio';
import { startWebKitDriver, webKitCapabilities } from '../../scripts/webkit.mjs';
import { BLANK_PAGE_PATH } from '../lib/server.mjs';
import { overridesAt, valueAt, variableList } from '../bindings/fixture.mjs';
import { serveVariablesFixture } from './compositions.mjs';
import { installPingResponder, watchText } from './frame-probes.mjs';
import { measureSeeksOnScreen } from './on-screen.mjs';
import { frameIntervals } from './page.mjs';
import { ON_ITS_OWN_GAP_MS, seekPlan } from './scrub.mjs';
import { BUNDLES } from './setup.mjs';

const LOAD_TIMEOUT_MS = 20_000;
const FRAME_INTERVALS = 60;
const WATCHED = '[data-var-text="s0"]';
const PLAYHEAD = 1.5;

/** A WebDriver session on a blank bench page with our player's bundle loaded; `close()` ends the session. */
async function openSession(context, driver) {
  const session = await remote({
    hostname: '127.0.0.1',
    port: driver.port,
    capabilities: webKitCapabilities(),
    logLevel: 'error',
  });
  try {
    await session.setTimeout({ script: 120_000 });
    await session.url(await context.url(BLANK_PAGE_PATH));
    const bundle = await context.url(`/${BUNDLES.fx.element}`);
    await session.execute(
      (src) =>
        new Promise((resolve, reject) => {
          const script = Object.assign(document.createElement('script'), { src, onload: resolve, onerror: reject });
          document.head.append(script);
        }).then(() => customElements.whenDefined('fx-composition')),
      bundle,
    );
  } catch (error) {
    await session.deleteSession().catch(() => undefined);
    throw error;
  }
  const pageModule = await context.url('/bench/player/page.mjs');
  return {
    /** Runs `fn(arg)` in the page (as Playwright's `page.evaluate`). */
    evaluate: (fn, arg) => session.execute(fn, arg),
    /** Runs `name(...args)` from page.mjs in the page. */
    inPage: (name, ...args) =>
      session.execute(async (url, name, args) => (await import(url))[name](...args), pageModule, name, args),
    /**
     * Runs `fn(arg)` inside the mounted player's composition frame (WebDriver reaches opaque-origin frames); `fn` is
     * sent as its source, so it must use nothing from its module.
     */
    async inFrame(fn, arg) {
      const iframe = await session.execute(() =>
        document.querySelector('[data-bench-player]')?.shadowRoot?.querySelector('iframe'),
      );
      await session.switchFrame(await session.$(iframe));
      try {
        return await session.execute(fn, arg);
      } finally {
        await session.switchFrame(null);
      }
    },
    close: () => session.deleteSession().catch(() => undefined),
  };
}

async function loadOnce(page, context, composition) {
  try {
    return (await page.inPage('load', 'fx', await context.url(composition.path), { timeoutMs: LOAD_TIMEOUT_MS }))
      .readyMs;
  } catch (error) {
    throw new Error(`WebKit failed to load "${composition.name}": ${error.message}`);
  }
}

async function measureLive(page, context, { warmup, samples }) {
  const fixture = await serveVariablesFixture(context, page);
  const variables = variableList();
  await page.inPage('load', 'fx', fixture.url);
  await page.inPage('seek', PLAYHEAD);
  await page.inFrame(installPingResponder);
  await page.inFrame(watchText, WATCHED);
  const clock = await page.inPage('calibrateFrameClock');
  const dom = [];
  for (let iteration = 0; iteration < warmup + samples; iteration++) {
    const expected = valueAt(
      variables.find((variable) => variable.id === 's0'),
      iteration,
    );
    const result = await page.inPage(
      'updateVariablesInPlace',
      overridesAt(variables, iteration),
      expected,
      clock.offset,
    );
    if (iteration >= warmup) dom.push(result.domMs);
  }
  return dom;
}

/**
 * Returns `{ cold, warm, live, seek, scrub, frameIntervals, compositionFrameIntervals }`, arrays of milliseconds,
 * measured in WebKit on `compositions` (load) and `scrubCompositions` (seeks), and `onScreen`, seeks read from the X
 * screen (on-screen.mjs); `skipped` instead when WebKit cannot be started here.
 */
export async function measureWebKit(context, { compositions, scrubCompositions, seeks, live }) {
  let driver;
  try {
    driver = await startWebKitDriver();
  } catch (error) {
    return { skipped: `WebKit could not be started: ${error.message}` };
  }
  const figures = {
    cold: [],
    warm: [],
    live: [],
    seek: [],
    scrub: [],
    frameIntervals: [],
    compositionFrameIntervals: [],
  };
  try {
    for (const composition of compositions) {
      const page = await openSession(context, driver);
      try {
        figures.cold.push(await loadOnce(page, context, composition));
      } finally {
        await page.close();
      }
    }
    const page = await openSession(context, driver);
    try {
      for (let pass = 0; pass < 2; pass++) {
        for (const composition of compositions) {
          const ms = await loadOnce(page, context, composition);
          if (pass > 0) figures.warm.push(ms); // pass 0 warms the page up
        }
      }
      figures.live = await measureLive(page, context, live);
      for (const [index, composition] of scrubCompositions.entries()) {
        const { duration } = await page.inPage('load', 'fx', await context.url(composition.path));
        const perComposition = Math.ceil(seeks / scrubCompositions.length);
        const onItsOwn = seekPlan(perComposition, duration, 0x0c0 + index).times;
        figures.seek.push(...(await page.inPage('seeksOnTheirOwn', onItsOwn, ON_ITS_OWN_GAP_MS)));
        figures.frameIntervals.push(...(await page.inPage('frameIntervals', FRAME_INTERVALS)));
        figures.compositionFrameIntervals.push(...(await page.inFrame(frameIntervals, FRAME_INTERVALS)));
        const { times, delays } = seekPlan(perComposition, duration, 0x5eed + index);
        figures.scrub.push(...(await page.inPage('scrub', 'fx', times, delays)).samples);
      }
    } finally {
      await page.close();
    }
    figures.onScreen = await measureSeeksOnScreen(context, driver);
  } finally {
    driver.stop();
  }
  return figures;
}
