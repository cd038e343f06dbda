/**
 * Where `fx-runtime.js` is loaded from: next to this module in the ES build. The classic-script bundle has no
 * `import.meta.url` and sets the URL from its own `<script src>` instead (src/iife.ts).
 */
export function defaultRuntimeUrl(): string {
  const moduleUrl: string | undefined = import.meta.url;
  return new URL(moduleUrl ? './fx-runtime.js' : 'fx-runtime.js', moduleUrl || document.baseURI).href;
}
