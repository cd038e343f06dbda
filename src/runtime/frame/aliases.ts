import type { FxRuntime } from './contract.js';

/**
 * Overrides injected before the runtime booted: `window.__fxVariables`, else (aliases on) `window.__hfVariables`.
 * A non-object is no injection, so the compiled configuration's overrides apply.
 */
export function injectedOverrides(aliases: boolean): Record<string, unknown> | undefined {
  for (const injected of [window.__fxVariables, aliases ? window.__hfVariables : undefined]) {
    if (typeof injected === 'object' && injected !== null && !Array.isArray(injected)) return injected;
  }
  return undefined;
}

/** The HyperFrames names of the top level's runtime and overrides: the same objects, not copies. */
export function installAliases(fx: FxRuntime, overrides: Record<string, unknown>): void {
  window.__hyperframes = fx;
  window.__hfVariables = overrides;
}
