// The in-page half of the player benchmarks (browser code, imported by URL into a page that has loaded one
// player's bundle): one adapter per player, so every measurement runs the same steps on both.

const BOX = 'display: block; width: 640px; height: 360px';

/** Resolves right after the next frame was painted: a rAF runs before paint, the task it queues runs after. */
export function afterNextPaint() {
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    }),
  );
}

const epochNow = () => performance.timeOrigin + performance.now();

/**
 * Removes the page's player, then resolves once the page paints promptly (`inARow` paints, each within `promptMs`
 * of the last), or after `maxMs`, with how long that took: a block's GPU work can outlive its frame (a heavy WebGL
 * block queues seconds of software rendering) and must not count against the next block.
 */
export async function untilPaintsPromptly({ promptMs = 50, inARow = 3, maxMs = 120_000 } = {}) {
  document.querySelector('[data-bench-player]')?.remove();
  const started = performance.now();
  // One paint can take longer than the whole wait.
  const deadline = new Promise((resolve) => setTimeout(resolve, maxMs));
  let prompt = 0;
  while (prompt < inARow && performance.now() - started < maxMs) {
    const before = performance.now();
    await Promise.race([afterNextPaint(), deadline]);
    prompt = performance.now() - before <= promptMs ? prompt + 1 : 0;
  }
  return performance.now() - started;
}

/**
 * How each player is driven. `load` starts loading `src`; `iframe` is the composition frame; `seek` resolves once
 * the frame showing `time` was painted (ours says so itself; the peer's `seek()` is synchronous, so the next paint
 * of the page — which includes its same-process frame — is awaited).
 */
const ADAPTERS = {
  fx: {
    tag: 'fx-composition',
    load: (element, src) => {
      // Compositions share sub-compositions across their folders (../12-subcomp-cards/card.html): allow the tree.
      element.allowCompositionReadsUnder = [new URL('../compositions/', import.meta.url).href];
      element.src = src;
    },
    iframe: (element) => element.shadowRoot?.querySelector('iframe') ?? null,
    seek: (element, time) => element.seek(time),
  },
  peer: {
    tag: 'hyperframes-player',
    load: (element, src) => element.setAttribute('src', src),
    iframe: (element) => element.iframeElement ?? null,
    async seek(element, time) {
      element.seek(time);
      await afterNextPaint();
      return peerFrameTime(element);
    },
  },
};

/** Where the peer's frame says it is: its runtime's clock, or the root timeline it drives directly. */
function peerFrameTime(element) {
  const frameWindow = element.iframeElement?.contentWindow;
  if (typeof frameWindow?.__player?.getTime === 'function') return frameWindow.__player.getTime();
  const id = frameWindow?.document.querySelector('[data-composition-id]')?.getAttribute('data-composition-id');
  return frameWindow?.__timelines?.[id]?.time?.() ?? Number.NaN;
}

function adapter(kind) {
  const found = ADAPTERS[kind];
  if (!found) throw new Error(`unknown player "${kind}", expected one of ${Object.keys(ADAPTERS).join(', ')}`);
  return found;
}

/** Waits for `ready` (or fails on `error` / after `timeoutMs`); resolves with the `performance.now()` it came at. */
function whenReady(element, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "ready" within ${timeoutMs} ms`)), timeoutMs);
    element.addEventListener('ready', () => (clearTimeout(timer), resolve(performance.now())), { once: true });
    element.addEventListener(
      'error',
      (event) => (clearTimeout(timer), reject(new Error(`"error" event: ${JSON.stringify(event.detail)}`))),
      { once: true },
    );
  });
}

/** Resolves once the player's element is defined. */
export async function whenDefined(kind) {
  await customElements.whenDefined(adapter(kind).tag);
}

/** Replaces the page's player with a fresh, empty element of `kind` and returns it. */
export async function mount(kind, { muted = true } = {}) {
  const { tag } = adapter(kind);
  await customElements.whenDefined(tag);
  document.querySelector('[data-bench-player]')?.remove();
  const element = document.createElement(tag);
  element.setAttribute('data-bench-player', kind);
  element.style.cssText = BOX;
  if (muted) element.setAttribute('muted', '');
  document.body.append(element);
  return element;
}

const current = () => {
  const element = document.querySelector('[data-bench-player]');
  if (!element) throw new Error('no player mounted; call load() first');
  return element;
};

/**
 * Mounts a fresh player, sets `src` and times it until the player's `ready` event. For the peer, also waits (up to
 * `assetsTimeoutMs`) for its later `assetsready` event, which is when it has checked media, images and fonts.
 */
export async function load(kind, src, options) {
  return loadInto(await mount(kind), kind, src, options);
}

async function loadInto(element, kind, src, { timeoutMs = 10_000, assetsTimeoutMs = 0 } = {}) {
  const assetsReady = new Promise((resolve) =>
    element.addEventListener('assetsready', () => resolve(performance.now()), { once: true }),
  );
  const ready = whenReady(element, timeoutMs);
  const start = performance.now();
  adapter(kind).load(element, src);
  const readyAt = await ready;
  let assetsReadyMs;
  if (assetsTimeoutMs > 0) {
    const at = await Promise.race([
      assetsReady,
      new Promise((resolve) => setTimeout(() => resolve(undefined), assetsTimeoutMs)),
    ]);
    if (at !== undefined) assetsReadyMs = at - start;
  }
  return { readyMs: readyAt - start, assetsReadyMs, duration: element.duration, start, readyAt };
}

/**
 * `load`, also noting (epoch ms) when a composition frame was put into the player's shadow root: for ours, the end
 * of the host's compile and mount. The peer's frame is there from the start (`null`).
 */
export async function loadProfiled(kind, src, options) {
  const element = await mount(kind);
  let framed = null;
  const observer = new MutationObserver((records) => {
    if (records.some((record) => [...record.addedNodes].some((node) => node.nodeName === 'IFRAME')))
      framed ??= epochNow();
  });
  if (element.shadowRoot) observer.observe(element.shadowRoot, { childList: true, subtree: true });
  const result = await loadInto(element, kind, src, options).finally(() => observer.disconnect());
  const toEpoch = (now) => performance.timeOrigin + now;
  return { ...result, start: toEpoch(result.start), readyAt: toEpoch(result.readyAt), framed };
}

/**
 * Seeks to each of `times`, `delays[k]` ms after a paint (as `scrub`); returns epoch ms `{ start, end }` of each
 * and where it landed.
 */
export async function seeksTimed(times, delays) {
  const seeks = [];
  for (const [k, time] of times.entries()) {
    await afterNextPaint();
    await new Promise((resolve) => setTimeout(resolve, delays[k]));
    const start = epochNow();
    const landed = await seek(time);
    seeks.push({ start, end: epochNow(), landed });
  }
  return seeks;
}

/**
 * Seeks the mounted player to each time in turn; returns how long each took until painted and where it landed.
 * Each seek starts `delays[k]` ms after a paint, so seeks arrive at every phase of the frame, as input does.
 */
export async function scrub(kind, times, delays) {
  const element = current();
  const { seek } = adapter(kind);
  const samples = [];
  const landed = [];
  for (const [k, time] of times.entries()) {
    await afterNextPaint();
    await new Promise((resolve) => setTimeout(resolve, delays[k]));
    const start = performance.now();
    landed.push(await seek(element, time));
    samples.push(performance.now() - start);
  }
  return { samples, landed, currentTime: element.currentTime };
}

/**
 * The floor under any seek that resolves once painted: from the same start points as `scrub` (`delays[k]` ms after a
 * paint) to the end of the page's next paint, seeking nothing. Milliseconds per start.
 */
export async function paintFloor(delays) {
  const samples = [];
  for (const delay of delays) {
    await afterNextPaint();
    await new Promise((resolve) => setTimeout(resolve, delay));
    const start = performance.now();
    await afterNextPaint();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** Milliseconds between `count` + 1 consecutive animation frames of this page: its own frame pace (self-contained:
 * webkit.mjs runs it inside the composition frame too). */
export async function frameIntervals(count) {
  const times = [];
  while (times.length <= count) times.push(await new Promise((resolve) => requestAnimationFrame(resolve)));
  return times.slice(1).map((time, k) => time - times[k]);
}

/**
 * Seeks the mounted player to each of `times`, each `gapMs` after the last answer (a seek on its own, as before a
 * screenshot, not part of a scrub); milliseconds from each call until its answer (the frame showing it was painted).
 */
export async function seeksOnTheirOwn(times, gapMs) {
  const samples = [];
  for (const time of times) {
    await new Promise((resolve) => setTimeout(resolve, gapMs));
    const start = performance.now();
    await seek(time);
    samples.push(performance.now() - start);
  }
  return samples;
}

export function play() {
  return current().play();
}

export function pause() {
  current().pause();
}

export function currentTime() {
  return current().currentTime;
}

// ---- Clocks across frames -------------------------------------------------------------------------------------

/**
 * Estimates `frameEpoch - pageEpoch` for the mounted player's frame (epoch = `timeOrigin + now()`), which may live
 * in another process: NTP-style pings answered by the probe installed in the frame, keeping the one with the
 * shortest round trip (its error is at most half that round trip).
 */
export async function calibrateFrameClock({ pings = 40 } = {}) {
  const frameWindow = adapter(current().getAttribute('data-bench-player')).iframe(current())?.contentWindow;
  if (!frameWindow) throw new Error('the player has no composition frame');
  let best = { roundTrip: Infinity, offset: 0 };
  for (let id = 0; id < pings; id++) {
    const reply = new Promise((resolve) => {
      const onMessage = (event) => {
        if (event.data?.benchPong !== id) return;
        removeEventListener('message', onMessage);
        resolve({ frameTime: event.data.frameTime, receivedAt: epochNow() });
      };
      addEventListener('message', onMessage);
    });
    const sentAt = epochNow();
    frameWindow.postMessage({ benchPing: id }, '*');
    const { frameTime, receivedAt } = await reply;
    const roundTrip = receivedAt - sentAt;
    if (roundTrip < best.roundTrip) best = { roundTrip, offset: frameTime - (sentAt + receivedAt) / 2 };
  }
  return best;
}

// ---- Live variable updates ------------------------------------------------------------------------------------

/**
 * Ours: sets `element.variables` and waits for the frame's probe (installed beforehand, see frame-probes.mjs) to
 * report the new text of the watched element. Returns page-clock milliseconds from the assignment to: the
 * `variableschange` event, the new text in the frame's DOM, style and layout done after it (the frame could
 * paint it), and the first paint after it.
 */
export async function updateVariablesInPlace(values, expectedText, frameOffset, { timeoutMs = 5000 } = {}) {
  const element = current();
  const timeBefore = element.currentTime;
  const reported = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the frame did not show "${expectedText}" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (event) => {
      const probe = event.data?.benchText;
      if (!probe || probe.text !== expectedText) return;
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      resolve(probe);
    };
    addEventListener('message', onMessage);
  });
  const eventSeen = new Promise((resolve) =>
    element.addEventListener('variableschange', () => resolve(epochNow()), { once: true }),
  );
  const setAt = epochNow();
  element.variables = values;
  const [probe, eventAt] = await Promise.all([reported, eventSeen]);
  const toPage = (frameEpoch) => frameEpoch - frameOffset;
  return {
    eventMs: eventAt - setAt,
    domMs: toPage(probe.appliedAt) - setAt,
    layoutMs: toPage(probe.layoutAt) - setAt,
    paintedMs: toPage(probe.paintedAt) - setAt,
    playheadShift: Math.abs(element.currentTime - timeBefore),
  };
}

/**
 * The peer: a variable change means a new document. Mounts `html` as the player's `srcdoc` (it carries
 * `window.__hfVariables` and a probe that calls `__benchPeerVisible` once the text is painted) and returns
 * milliseconds to that paint and to `ready`, and the frame's playhead before and after.
 */
export async function remountWithVariables(html, expectedText, { timeoutMs = 10_000 } = {}) {
  const element = current();
  const timeBefore = peerFrameTime(element);
  const visible = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the peer did not show "${expectedText}" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    window.__benchPeerVisible = (text, paintedAt) => {
      if (text !== expectedText) return;
      clearTimeout(timer);
      resolve(paintedAt);
    };
  });
  const ready = whenReady(element, timeoutMs);
  const setAt = epochNow();
  element.setAttribute('srcdoc', html);
  const paintedAt = await visible;
  await ready;
  const readyAt = epochNow();
  const timeAfter = peerFrameTime(element);
  return {
    paintedMs: paintedAt - setAt,
    readyMs: readyAt - setAt,
    timeBefore,
    timeAfter,
    playheadShift: Math.abs(timeAfter - timeBefore),
  };
}

/** Mounts a fresh peer player on `html` (as `srcdoc`) and waits for it to be ready. */
export async function loadSrcdoc(kind, html, { timeoutMs = 10_000 } = {}) {
  const element = await mount(kind);
  const ready = whenReady(element, timeoutMs);
  element.setAttribute('srcdoc', html);
  await ready;
}

/** Seeks the mounted player and waits for the paint. */
export function seek(time) {
  const element = current();
  return adapter(element.getAttribute('data-bench-player')).seek(element, time);
}

// ---- Real-composition checks (bench/player/block-checks.mjs) ---------------------------------------------------

/** The mounted player's duration, play state, playhead, and (ours) the declared variables `{ id, type, default }`. */
export function playerState() {
  const element = current();
  const declarations = (element.declarations ?? []).map(({ id, type, default: value }) => ({
    id,
    type,
    default: value,
  }));
  return { duration: element.duration, currentTime: element.currentTime, paused: element.paused, declarations };
}

/**
 * Ours: sets one variable with the playhead parked and returns milliseconds from the set to the first paint showing
 * it (`ms`): the frame's answer when its scripts ran again in place (it answers in the task after the paint that shows
 * the new values, as the peer's seek below ends after its page's paint), the page's paint after the reloaded frame
 * swapped in when they could not. `pagePaintMs` adds the page's next paint after that answer (a frame more: the
 * previous, conservative reading). `how` says which path; `scripts` whether the composition's scripts read that
 * variable (else only bindings show it).
 */
export async function overrideVisible(id, value, { timeoutMs = 10_000 } = {}) {
  const element = current();
  const changed = new Promise((resolve) =>
    element.addEventListener('variableschange', (event) => resolve(event.detail.reloading), { once: true }),
  );
  const setAt = performance.now();
  element.variables = { ...element.variables, [id]: value };
  const reloading = await changed;
  // The reload's swap comes well after its announcement, and shows once the page paints the swapped frame.
  if (reloading) await whenReady(element, timeoutMs).then(afterNextPaint);
  const ms = performance.now() - setAt;
  await afterNextPaint();
  const pagePaintMs = performance.now() - setAt;
  // The frame reports what scripts read at most every 250 ms (SCRIPT_READS): wait past that before concluding none did.
  const readsDeadline = performance.now() + 600;
  while (!element.variablesRead.includes(id) && performance.now() < readsDeadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const scripts = element.variablesRead.includes(id);
  return { ms, pagePaintMs, how: reloading ? 'reload' : scripts ? 'in place' : 'bindings', scripts };
}

/**
 * The peer: a variable change is a new document. Re-mounts `html` (carrying the value in `window.__hfVariables`) and
 * seeks back to `time`; milliseconds from the re-mount to the paint of that seek.
 */
export async function overrideByRemount(html, time, { timeoutMs = 10_000 } = {}) {
  const element = current();
  const ready = whenReady(element, timeoutMs);
  const setAt = performance.now();
  element.setAttribute('srcdoc', html);
  await ready;
  await adapter('peer').seek(element, time);
  return { ms: performance.now() - setAt };
}

/** Seeks the mounted player and resolves with where it landed, or rejects after `timeoutMs`. */
export function seekWithin(time, timeoutMs) {
  return Promise.race([
    seek(time),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`seek(${time}) took over ${timeoutMs} ms`)), timeoutMs),
    ),
  ]);
}

/** Sets the mounted player's variables (ours: a live update, or a reload when scripts read them at load). */
export function setVariables(values) {
  current().variables = values;
}
