import { Attr } from '../constants.js';
import { awaitingLayout, fitText } from '../fit.js';

/** How many font faces had loaded when text was last fitted (-1: never). */
let fittedWithFaces = -1;

/**
 * Fits `data-var-fit` texts again where their fit is stale: all of them when more font faces have loaded since the
 * last time (a face that arrives after the values were applied changes the text's width), else only those whose fit
 * found them not laid out (the frame was laid out late, under load), left at their authored size. Called on
 * `loadingdone` and when a font value's face loads (the preview), and after every seek waited for fonts (the render
 * captures right after), so both show the text fitted in its final face.
 */
export function refitWhereStale(): void {
  let loaded = 0;
  document.fonts?.forEach((face) => void (face.status === 'loaded' && loaded++));
  // Else only the texts whose fit found them not laid out (left at their authored size) try again.
  if (loaded === fittedWithFaces) return awaitingLayout().forEach(fitText);
  fittedWithFaces = loaded;
  for (const element of document.querySelectorAll(`[${Attr.varFit}][${Attr.varText}]`)) fitText(element);
}
