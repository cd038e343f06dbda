/**
 * The runtime's code as the ES build embeds it (vite.config.ts `define`): bundlers then have no second file to
 * find and copy. `undefined` in the source tree and the classic-script bundles, which load `fx-runtime.js` by URL.
 */
declare const __FX_RUNTIME_SCRIPT__: string | undefined;
export const embeddedRuntimeScript: string | undefined =
  typeof __FX_RUNTIME_SCRIPT__ === 'string' ? __FX_RUNTIME_SCRIPT__ : undefined;

/**
 * Where `fx-runtime.js` is loaded from when no code is embedded: next to this module. The classic-script bundles
 * have no `import.meta.url` and set the URL from their own `<script src>` instead (classic-script.ts).
 */
export function defaultRuntimeUrl(): string {
  const moduleUrl: string | undefined = import.meta.url;
  return new URL(moduleUrl ? './fx-runtime.js' : 'fx-runtime.js', moduleUrl || document.baseURI).href;
}
