// Code that runs inside a composition frame (browser code). Our frame has an opaque origin, so the host page cannot
// reach into it: these functions are installed by playwright (`frame.evaluate(fn, arg)`), which can, and report
// back with `postMessage`. Each function is self-contained because it is serialized into the frame.

/** Answers the page's clock pings (page.mjs `calibrateFrameClock`) with this frame's epoch time. */
export function installPingResponder() {
  if (window.__benchPings) return;
  window.__benchPings = true;
  addEventListener('message', (event) => {
    if (typeof event.data?.benchPing !== 'number') return;
    event.source?.postMessage(
      { benchPong: event.data.benchPing, frameTime: performance.timeOrigin + performance.now() },
      '*',
    );
  });
}

/**
 * Watches the text of the first element matching `selector`. On every change it records (epoch ms) when the
 * change was seen (a MutationObserver runs right after the task that wrote it), when style and layout were
 * brought up to date, and when the next frame was painted, then posts `{ benchText }` to the parent.
 */
export function watchText(selector) {
  const target = document.querySelector(selector);
  if (!target) throw new Error(`no element matches "${selector}" in the frame`);
  const epoch = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => {
    const appliedAt = epoch();
    void getComputedStyle(target).color; // style recalc
    void document.body.offsetHeight; // layout
    const layoutAt = epoch();
    const text = target.textContent;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () =>
        parent.postMessage({ benchText: { text, appliedAt, layoutAt, paintedAt: epoch() } }, '*');
      channel.port2.postMessage(null);
    });
  }).observe(target, { childList: true, characterData: true, subtree: true });
}

/**
 * Samples, once per rendered frame, the composition time and the `currentTime` of the first `<video>`, read at
 * the same instant. The sampling callback is requested from a task that runs after each paint, so in the next
 * frame it runs after the player's own animation-frame callback. The peer runtime's `__player.getTime()` is a live
 * clock; ours (`__fx.currentTime`) holds the time its tick applied for this frame's timestamp, so while playing it
 * is carried forward to the instant of reading.
 */
export function startPlaybackSampler() {
  const video = document.querySelector('video');
  const fx = window.__fx;
  if (!fx && typeof window.__player?.getTime !== 'function')
    throw new Error('the frame has neither __fx nor a peer runtime clock');
  const samples = [];
  const state = { running: true, samples };
  window.__benchSampler = state;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => state.running && requestAnimationFrame(onFrame);
  const onFrame = (now) => {
    const media = video ? video.currentTime : null;
    const at = performance.now();
    const time = fx ? fx.currentTime + (fx.paused ? 0 : (at - now) / 1000) : window.__player.getTime();
    samples.push({ now, time, media, mediaPaused: video ? video.paused : true });
    channel.port2.postMessage(null);
  };
  requestAnimationFrame(onFrame);
}

export function stopPlaybackSampler() {
  const state = window.__benchSampler;
  if (!state) throw new Error('the playback sampler was not started');
  state.running = false;
  return state.samples;
}

/**
 * The script put into each peer `srcdoc` (its documents are same-origin with the page): waits until the element
 * matching `selector` shows `expected`, then reports the first paint after that to `parent.__benchPeerVisible`.
 */
export function peerVisibilityProbe(selector, expected) {
  const check = () => {
    const element = document.querySelector(selector);
    if (!element || element.textContent !== expected) return requestAnimationFrame(check);
    // This callback runs before the paint that shows the text; the task it queues runs after.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => parent.__benchPeerVisible?.(expected, performance.timeOrigin + performance.now());
    channel.port2.postMessage(null);
  };
  requestAnimationFrame(check);
}

/**
 * The browser's own cost of showing an update, with no player involved: writes `values` straight into the frame's
 * DOM the way the bindings do (text of every `[data-var-text]`, `src` of every `[data-var-src]`, one `--{id}` per
 * variable on the composition root), then forces style and layout. Returns the frame's `{ writeMs, layoutMs }`
 * (layout measured from the start of the writes), so our figures can be read against this floor.
 */
export function directWrites(values) {
  const root = document.querySelector('[data-composition-id]');
  const start = performance.now();
  for (const element of document.querySelectorAll('[data-var-text]'))
    element.firstChild.nodeValue = String(values[element.getAttribute('data-var-text')]);
  for (const element of document.querySelectorAll('[data-var-src]'))
    element.setAttribute('src', values[element.getAttribute('data-var-src')]);
  for (const id in values) root.style.setProperty(`--${id}`, String(values[id]));
  const written = performance.now();
  void getComputedStyle(document.querySelector('[data-var-text]')).color;
  void document.body.offsetHeight;
  const laidOut = performance.now();
  return new Promise((resolve) =>
    requestAnimationFrame(() => setTimeout(() => resolve({ writeMs: written - start, layoutMs: laidOut - start }), 0)),
  );
}

/**
 * Where a seek spends its time inside the frame, without touching the player: wraps `seek` of every timeline in
 * `window.__timelines` (both players seek through it) to record when the first call of a seek started and the last
 * ended. After each call, a rAF (requested before the player's own, so it runs first in that frame) marks the
 * frame's start and resizes a hidden 1 px marker, whose ResizeObserver callback (run once style and layout are
 * done) marks the layout; the task the rAF queues marks the paint. Epoch ms; `takeSeekProbe` returns and clears them.
 */
export function installSeekProbe() {
  if (window.__benchSeeks) return;
  const calls = [];
  window.__benchSeeks = calls;
  const epoch = () => performance.timeOrigin + performance.now();
  const marker = document.createElement('div');
  marker.style.cssText = 'position: fixed; left: 0; top: 0; width: 1px; height: 1px; visibility: hidden';
  document.documentElement.append(marker);
  let laying;
  new ResizeObserver(() => {
    if (laying) laying.laidOut = epoch();
    laying = undefined;
  }).observe(marker);
  for (const timeline of Object.values(window.__timelines ?? {})) {
    if (typeof timeline?.seek !== 'function') continue;
    const seek = timeline.seek;
    timeline.seek = function (...args) {
      const call = { start: epoch() };
      calls.push(call);
      try {
        return seek.apply(this, args);
      } finally {
        call.end = epoch();
        requestAnimationFrame(() => {
          call.frame = epoch();
          laying = call;
          marker.style.width = marker.style.width === '2px' ? '1px' : '2px';
          const channel = new MessageChannel();
          channel.port1.onmessage = () => (call.painted = epoch());
          channel.port2.postMessage(null);
        });
      }
    };
  }
}

/** The calls `installSeekProbe` recorded since the last take. */
export function takeSeekProbe() {
  return (window.__benchSeeks ?? []).splice(0);
}

/** The frame document's navigation milestones as epoch milliseconds (see `profile.mjs`). */
export function navigationMilestones() {
  const [entry] = performance.getEntriesByType('navigation');
  const at = (time) => (time > 0 ? performance.timeOrigin + time : null);
  return {
    start: performance.timeOrigin,
    domContentLoaded: at(entry?.domContentLoadedEventEnd ?? 0),
    loaded: at(entry?.loadEventEnd ?? 0),
  };
}
