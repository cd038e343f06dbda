/**
 * The runtime's code as the browser builds embed it (vite.config.ts `define`): bundlers then have no second file to
 * find and copy, and the frame writes it inline. `undefined` in the source tree, which loads `fx-runtime.js` by URL.
 */
declare const __FX_RUNTIME_SCRIPT__: string | undefined;
export const embeddedRuntimeScript: string | undefined =
  typeof __FX_RUNTIME_SCRIPT__ === 'string' ? __FX_RUNTIME_SCRIPT__ : undefined;

/** Where `fx-runtime.js` is loaded from when no code is embedded (the source tree): next to this module. */
export function defaultRuntimeUrl(): string {
  const moduleUrl: string | undefined = import.meta.url;
  return new URL(moduleUrl ? './fx-runtime.js' : 'fx-runtime.js', moduleUrl || document.baseURI).href;
}
