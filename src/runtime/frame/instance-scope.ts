import { HYPERFRAMES_GLOBALS } from '../frame-config.js';
import type { FxRuntime, SeekableTimeline } from './contract.js';

/** Names that mean the global object itself: inside an instance they answer with the instance's view again. */
const SELF_NAMES: ReadonlySet<PropertyKey> = new Set(['window', 'self', 'globalThis', 'frames']);
/** Top-level overrides: they never reach an instance, so its view has none (nor their alias, when on). */
const HIDDEN: ReadonlySet<PropertyKey> = new Set(['__fxVariables']);
const HIDDEN_WITH_ALIASES: ReadonlySet<PropertyKey> = new Set([...HIDDEN, HYPERFRAMES_GLOBALS.overrides]);

/**
 * The views a sub-composition instance's wrapped scripts get for `window`, `globalThis` and `self`: the real
 * window, except that `__fx` answers with the instance's values, `__timelines` is the instance's own registry
 * (instances of one source share a composition id, so a shared registry would let them overwrite each other) and
 * `__fxVariables` is absent; with `aliases`, `__hyperframes` is the instance's `__fx` and `__hfVariables` absent. This keeps well-behaved scripts apart; it is **not a security boundary**: every
 * instance shares the frame's realm, and `document.defaultView`, `parent`/`top` of a top-level render page,
 * `Function('return this')()` or the config element reach the real globals.
 */
export function instanceWindow(
  instanceFx: FxRuntime,
  timelines: Record<string, SeekableTimeline>,
  aliases: boolean,
): Window {
  const hidden = aliases ? HIDDEN_WITH_ALIASES : HIDDEN;
  const view: Window = new Proxy(window, {
    get(target, key) {
      if (key === '__fx' || (aliases && key === HYPERFRAMES_GLOBALS.runtime)) return instanceFx;
      if (key === '__timelines') return timelines;
      if (hidden.has(key)) return undefined;
      if (SELF_NAMES.has(key)) return view;
      const value = Reflect.get(target, key, target);
      // Window methods throw "Illegal invocation" when called on the proxy.
      return typeof value === 'function' && !/^[A-Z]/.test(String(key)) ? value.bind(target) : value;
    },
    has(target, key) {
      return !hidden.has(key) && Reflect.has(target, key);
    },
    set(target, key, value) {
      if (key === '__timelines' && typeof value === 'object' && value !== null) {
        Object.assign(timelines, value);
        return true;
      }
      return Reflect.set(target, key, value, target);
    },
  });
  return view;
}
