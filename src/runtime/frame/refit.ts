import { Attr } from '../constants.js';
import { fitText } from '../fit.js';

/** How many font faces had loaded when text was last fitted (-1: never). */
let fittedWithFaces = -1;

/**
 * Fits every `data-var-fit` text again when more font faces have loaded since the last time: a face that arrives
 * after the values were applied changes the text's width. Called on `loadingdone` (the preview) and after every
 * seek waited for fonts (the render captures right after), so both show the text fitted in its final face.
 */
export function refitAfterFontLoads(): void {
  let loaded = 0;
  document.fonts?.forEach((face) => void (face.status === 'loaded' && loaded++));
  if (loaded === fittedWithFaces) return;
  fittedWithFaces = loaded;
  for (const element of document.querySelectorAll(`[${Attr.varFit}][${Attr.varText}]`)) fitText(element);
}
