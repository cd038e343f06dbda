import { Attr } from './constants.js';

/** Layout is measured in whole CSS pixels in places (offsets), so differences below this are noise. */
const TOLERANCE_PX = 1;

/** A box in page coordinates. */
export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** True when the element has a layout box (not `display: none`, not detached); `visibility: hidden` still has one. */
export function isLaidOut(element: Element): element is HTMLElement {
  return 'offsetParent' in element && element.getClientRects().length > 0;
}

/**
 * The element's border box as laid out, ignoring transforms: animations move what is drawn, not the space the
 * author gave an element, so this answer is the same at every frame.
 */
export function layoutBox(element: HTMLElement): Box {
  let left = 0;
  let top = 0;
  for (let node: HTMLElement | null = element; node;) {
    const parent = node.offsetParent as HTMLElement | null;
    // Offsets run from the offset parent's padding edge: its border belongs to the sum too.
    left += node.offsetLeft + (parent?.clientLeft ?? 0);
    top += node.offsetTop + (parent?.clientTop ?? 0);
    node = parent;
  }
  return { left, top, right: left + element.offsetWidth, bottom: top + element.offsetHeight };
}

/** The padding box of the composition root the element is laid out in (a sub-composition instance has its own). */
export function rootBox(element: Element): Box | undefined {
  const root = element.closest(`[${Attr.compositionId}]`);
  if (!root || !isLaidOut(root)) return undefined;
  const { left, top } = layoutBox(root);
  const x = left + root.clientLeft;
  const y = top + root.clientTop;
  return { left: x, top: y, right: x + root.clientWidth, bottom: y + root.clientHeight };
}

/** True when the element's content overflows its own box (an inline element has no box of its own to overflow). */
export function overflowsOwnBox(element: HTMLElement): boolean {
  if (getComputedStyle(element).display === 'inline') return false;
  return (
    element.scrollWidth > element.clientWidth + TOLERANCE_PX ||
    element.scrollHeight > element.clientHeight + TOLERANCE_PX
  );
}

export function isInside(inner: Box, outer: Box): boolean {
  return (
    inner.left >= outer.left - TOLERANCE_PX &&
    inner.top >= outer.top - TOLERANCE_PX &&
    inner.right <= outer.right + TOLERANCE_PX &&
    inner.bottom <= outer.bottom + TOLERANCE_PX
  );
}

export function intersects(a: Box, b: Box): boolean {
  return (
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > TOLERANCE_PX &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > TOLERANCE_PX
  );
}

/** True when the element's content fits its box and its box lies inside its composition root. */
export function fitsItsBox(element: HTMLElement): boolean {
  if (overflowsOwnBox(element)) return false;
  const root = rootBox(element);
  return !root || isInside(layoutBox(element), root);
}
