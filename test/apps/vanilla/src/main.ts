import 'fx-sdk';
import { FxComposition } from 'fx-sdk';

const preview = document.querySelector('fx-composition');
if (!(preview instanceof FxComposition)) throw new Error('<fx-composition> is not defined');
// Typed `error` details without casts come with issue 9 item 3 (event maps); until then, Event + a cast.
preview.addEventListener('error', (event: Event) => console.error('fx error', (event as CustomEvent<{ code: string }>).detail.code));
document.querySelector('#change')!.addEventListener('click', () => {
  preview.variables = { headline: 'Changed live' };
});
