// Classic-script bundle: defines every element and exposes the public API as `window.fx`.
import { FxComposition } from './elements/fx-composition.js';

// A classic script has no import.meta.url: the runtime sits next to this file.
const script = document.currentScript as HTMLScriptElement | null;
if (script?.src) FxComposition.runtimeUrl = new URL('fx-runtime.js', script.src).href;

// window.fx: the whole SDK but the zod schemas, which would double this bundle's size.
export * from './sdk.js';
