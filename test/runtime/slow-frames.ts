/**
 * Animation frames every `everyMs` instead of at the display's rate, as on a throttled or slow device: callbacks
 * requested meanwhile run together in the first real frame after each tick. Returns what puts the real
 * `requestAnimationFrame` back. As a script too ({@link slowFramesScript}), to run inside a composition's frame.
 */
export function slowFrames(everyMs: number, target: Window = window): () => void {
  const real = target.requestAnimationFrame.bind(target);
  let waiting: FrameRequestCallback[] = [];
  const tick = target.setInterval(() => {
    if (waiting.length === 0) return;
    const callbacks = waiting;
    waiting = [];
    real((time) => callbacks.forEach((callback) => callback(time)));
  }, everyMs);
  target.requestAnimationFrame = (callback) => waiting.push(callback);
  return () => {
    target.clearInterval(tick);
    target.requestAnimationFrame = real;
    waiting.forEach((callback) => real(callback));
  };
}

/** A classic script that slows the animation frames of the document it runs in to one every `everyMs`. */
export const slowFramesScript = (everyMs: number) => `<script>(${slowFrames.toString()})(${everyMs});</script>`;
