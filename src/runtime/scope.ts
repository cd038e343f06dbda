import { Attr } from './constants.js';

const COMPOSITION = `[${Attr.compositionId}]`;

/**
 * The sub-composition an element belongs to: the nearest `[data-composition-id]` ancestor-or-self that is itself
 * nested in another composition. `null` means the top-level composition. Bindings, CSS properties and
 * `getVariables()` all use this, so an element always resolves against its owning composition.
 */
export function compositionOwner(element: Element): Element | null {
  const nearest = element.closest(COMPOSITION);
  if (!nearest) return null;
  const parent = nearest.parentElement?.closest(COMPOSITION);
  if (!parent) return null;
  // Nested: the owner is the innermost root; its own parent chain decides nothing more.
  return nearest;
}

/** The element a `Document` or element stands for when bindings are applied to it. */
export function scopeElement(root: Element | Document): Element {
  return 'documentElement' in root ? root.documentElement : root;
}
