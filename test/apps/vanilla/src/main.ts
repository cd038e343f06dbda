import 'fx-sdk';
import { FxComposition } from 'fx-sdk';

const preview = document.querySelector('fx-composition');
if (!(preview instanceof FxComposition)) throw new Error('<fx-composition> is not defined');
// `error` is typed (`{ code, message }`) by the element's event map.
preview.addEventListener('error', (event) => console.error('fx error', event.detail.code, event.detail.message));
document.querySelector('#change')!.addEventListener('click', () => {
  preview.variables = { headline: 'Changed live' };
});
