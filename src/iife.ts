// Classic-script bundle: defines every element and exposes the public API as `window.fx`.
// window.fx: the whole SDK but the zod schemas, which would double this bundle's size.
export * from './sdk.js';
