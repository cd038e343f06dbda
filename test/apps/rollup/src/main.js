// @ts-check
// The registration import alone (no named import keeps the module alive): it must survive tree-shaking, which
// package.json's `sideEffects` decides. Its types come with it (HTMLElementTagNameMap).
import 'fx-sdk';

const preview = document.querySelector('fx-composition');
if (!preview) throw new Error('no <fx-composition> in the page');
preview.addEventListener('error', (event) => console.error('fx error', event.detail.code, event.detail.message));
document.querySelector('#change')?.addEventListener('click', () => {
  preview.variables = { headline: 'Changed live' };
});
