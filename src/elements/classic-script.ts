import { FxComposition } from './fx-composition.js';

/**
 * For the classic-script bundles, which have no `import.meta.url`: loads `fx-runtime.js` from next to the bundle's
 * own `<script src>`. Call while the bundle's script runs (`document.currentScript` is set only then).
 */
export function loadRuntimeNextToScript(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  if (script?.src) FxComposition.runtimeUrl = new URL('fx-runtime.js', script.src).href;
}
