import type { FxRuntime, SeekableTimeline } from './contract.js';

/**
 * The views a sub-composition instance's wrapped scripts get for `window`, `globalThis` and `self`: the real
 * window, except that `__fx` answers with the instance's values and `__timelines` is the instance's own registry
 * (instances of one source share a composition id, so a shared registry would let them overwrite each other).
 */
export function instanceWindow(instanceFx: FxRuntime, timelines: Record<string, SeekableTimeline>): Window {
  return new Proxy(window, {
    get(target, key) {
      if (key === '__fx') return instanceFx;
      if (key === '__timelines') return timelines;
      const value = Reflect.get(target, key, target);
      // Window methods throw "Illegal invocation" when called on the proxy.
      return typeof value === 'function' && !/^[A-Z]/.test(String(key)) ? value.bind(target) : value;
    },
    set(target, key, value) {
      if (key === '__timelines' && typeof value === 'object' && value !== null) {
        Object.assign(timelines, value);
        return true;
      }
      return Reflect.set(target, key, value, target);
    },
  });
}
