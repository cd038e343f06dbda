import { Attr, FitMode } from './constants.js';
import { BindingIssueCode as Code, issue, describe, type Issue } from './issues.js';
import { fitsItsBox, isLaidOut } from './layout-box.js';

/** Font sizes the search tells apart, in CSS pixels: a finer step would not show. */
const PRECISION_PX = 0.25;
/** The smallest size when `data-var-fit-min` is absent: half the authored size. */
const DEFAULT_MIN: FitMin = { ratio: 0.5 };
/** `12px`, or a plain number: a share of the authored size, above 0 and at most 1. */
const MIN_PATTERN = /^(?:(\d{1,4}(?:\.\d+)?)px|(\d?\.?\d+))$/;

/** The smallest size text may shrink to: in CSS pixels, or as a share of its authored size. */
export type FitMin = { readonly px: number } | { readonly ratio: number };

/** What the font size was before fitting, so every fit starts from the authored size. */
const authoredSize = new WeakMap<Element, string>();
/** Elements whose last fit found them not laid out: fitted again once they are (see `refitWhereStale`). */
const notLaidOut = new Set<Element>();

/** The elements in the document whose last fit found them not laid out (a frame laid out late, under load). */
export function awaitingLayout(): Element[] {
  for (const element of notLaidOut) if (!element.isConnected) notLaidOut.delete(element);
  return [...notLaidOut];
}

/** The minimum an attribute value names (`null`: the default), or `undefined` for a value it cannot be. */
function parseFitMin(value: string | null): FitMin | undefined {
  if (value === null) return DEFAULT_MIN;
  const match = MIN_PATTERN.exec(value.trim());
  if (!match) return undefined;
  if (match[1] !== undefined) {
    const px = Number(match[1]);
    return px > 0 ? { px } : undefined;
  }
  const ratio = Number(match[2]);
  return ratio > 0 && ratio <= 1 ? { ratio } : undefined;
}

/**
 * Problems with an element's `data-var-fit` and `data-var-fit-min` (one text for the runtime and lint). A refused
 * fit leaves the text at its authored size.
 */
export function fitIssues(element: Element): Issue[] {
  const mode = element.getAttribute(Attr.varFit);
  if (mode === null) return [];
  const issues: Issue[] = [];
  if (!Object.values<string>(FitMode).includes(mode)) {
    issues.push(
      issue(
        Code.fitInvalid,
        [Attr.varFit],
        `"${Attr.varFit}" on <${element.localName}> must be "${FitMode.shrink}", got ${describe(mode)}`,
      ),
    );
  }
  const min = element.getAttribute(Attr.varFitMin);
  if (parseFitMin(min) === undefined) {
    issues.push(
      issue(
        Code.fitMinInvalid,
        [Attr.varFitMin],
        `"${Attr.varFitMin}" on <${element.localName}> must be a size in px above 0 (such as "12px") or a share of the authored size above 0 and at most 1 (such as "0.5"), got ${describe(min)}`,
      ),
    );
  }
  if (!element.hasAttribute(Attr.varText)) {
    issues.push(
      issue(
        Code.fitWithoutText,
        [Attr.varFit],
        `"${Attr.varFit}" on <${element.localName}> does nothing without "${Attr.varText}" on the same element`,
        'warning',
      ),
    );
  }
  return issues;
}

/**
 * `data-var-fit="shrink"`: lowers the element's font size from its authored size until its content fits its box
 * and its box stays inside its composition root, down to `data-var-fit-min` (where text that still does not fit
 * stays). A binary search on the size, measured synchronously: the same layout gives the same size in the preview
 * and the render. Idempotent; an element with a refused fit, or not laid out, keeps its authored size.
 */
export function fitText(element: Element): void {
  if (!('style' in element)) return;
  const style = (element as HTMLElement).style;
  if (!authoredSize.has(element)) authoredSize.set(element, style.fontSize);
  style.fontSize = authoredSize.get(element)!;
  const min = parseFitMin(element.getAttribute(Attr.varFitMin));
  if (element.getAttribute(Attr.varFit) !== FitMode.shrink || !min) return;
  if (!isLaidOut(element)) return void notLaidOut.add(element);
  notLaidOut.delete(element);
  if (fitsItsBox(element)) return;
  const size = parseFloat(getComputedStyle(element).fontSize);
  let low = 'px' in min ? Math.min(min.px, size) : size * min.ratio;
  let high = size;
  while (high - low > PRECISION_PX) {
    const middle = (low + high) / 2;
    style.fontSize = `${middle}px`;
    if (fitsItsBox(element)) low = middle;
    else high = middle;
  }
  style.fontSize = `${low}px`;
}
