import { FrameAttr } from '../frame-config.js';
import { instanceSelector } from './roots.js';

/** A new stylesheet of the frame document's own, after the author's. */
export function adoptStyle(): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return sheet;
}

let isolation: CSSStyleSheet | undefined;
let isolationText = '';

/**
 * Keeps each composition's `--{id}` custom properties out of the sub-composition instances inside it. CSS
 * inheritance would otherwise carry them in, and top-level overrides would reach instances, which they never may.
 * One rule per composition resets its ids on every instance root inside it (`var(--id, fallback)` then takes the
 * fallback there); an instance's own values are inline on its root and win over the rule, and `:where` leaves
 * author rules the last word. Idempotent: the sheet is rewritten only when the ids changed.
 *
 * @param idsByScope the ids each composition sets, by scope: `''` for the top level, else the instance id.
 */
export function isolateInstances(idsByScope: Iterable<readonly [scope: string, ids: readonly string[]]>): void {
  let text = '';
  for (const [scope, ids] of idsByScope) {
    if (ids.length === 0) continue;
    const outer = scope === '' ? '' : `${instanceSelector(scope)} `;
    text += `:where(${outer}[${FrameAttr.instance}]) { ${ids.map((id) => `--${CSS.escape(id)}: initial;`).join(' ')} }\n`;
  }
  if (text === isolationText) return;
  isolationText = text;
  (isolation ??= adoptStyle()).replaceSync(text);
}
