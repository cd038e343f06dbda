import type { VariableDeclaration } from '../declarations.js';
import { issue, type Issue } from '../issues.js';
import { safeFontUrl } from '../safety.js';
import { FrameCode } from './frame-codes.js';
import { refitWhereStale } from './refit.js';

/** Name and source of every face added, so each is added once. */
const added = new Set<string>();

/**
 * Registers the font file of every font variable whose value is `{ name, source }`, so `--{id}` (the family name)
 * renders in that face. Sources go through the safety rules; a face is added once per name and source.
 * `document.fonts.ready`, which `seek` awaits, covers the loading.
 */
export function applyFontValues(
  declarations: readonly VariableDeclaration[],
  values: Readonly<Record<string, unknown>>,
): Issue[] {
  const issues: Issue[] = [];
  for (const { id, type } of declarations) {
    const value = values[id] as { name?: unknown; source?: unknown } | undefined;
    if (type !== 'font' || typeof value !== 'object' || value === null || typeof value.source !== 'string') continue;
    const name = String(value.name);
    const source = safeFontUrl(value.source);
    if (source === undefined) {
      issues.push(
        issue(
          FrameCode.fontSourceRefused,
          [id, 'source'],
          `font "${name}" has a source that is not an allowed font URL`,
        ),
      );
      continue;
    }
    const key = `${name}\n${source}`;
    if (added.has(key)) continue;
    added.add(key);
    const face = new FontFace(name, `url(${JSON.stringify(new URL(source, document.baseURI).href)})`);
    document.fonts.add(face);
    // Texts fitted in the fallback fit again in this face; WebKit fires no `loadingdone` for a face added from
    // script. A failed load leaves the fallback family in place; the error surfaces as an unloaded face, not a throw.
    face.load().then(refitWhereStale, () => undefined);
  }
  return issues;
}
