import { svg } from 'lit';

/**
 * The glyphs of the field's small buttons, drawn in `currentColor` on a 16-unit grid (no icon font to load, the same
 * in every browser). Decorative: each button carries its own accessible name.
 */
export const Icon = {
  edit: svg`<path d="M11.3 2.3a1.5 1.5 0 0 1 2.1 0l.3.3a1.5 1.5 0 0 1 0 2.1L6 12.4 2.5 13.5l1.1-3.5z" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linejoin="round"/>`,
  remove: svg`<path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>`,
  reset: svg`<path d="M3.5 8a4.5 4.5 0 1 0 1.4-3.3" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/><path d="M3 2.2v3.3h3.3" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round"/>`,
} as const;
