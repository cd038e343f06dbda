// Classic-script bundle: defines every element shipped so far and exposes the public API as `window.fx`.
export * from './index.js';
