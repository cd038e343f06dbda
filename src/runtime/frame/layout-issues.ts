import { Attr } from '../constants.js';
import { LayoutIssueCode as Code, issue, type Issue } from '../issues.js';
import { intersects, isInside, isLaidOut, layoutBox, overflowsOwnBox, rootBox } from '../layout-box.js';
import { compositionOwner, scopeElement } from '../scope.js';

const BOUND = `[${Attr.varText}],[${Attr.varSrc}]`;

/** `<p class="subtitle">`: enough to find an element in the source. */
function label(element: Element): string {
  const id = element.id ? ` id="${element.id}"` : '';
  const className = element.getAttribute('class');
  return `<${element.localName}${id}${!id && className ? ` class="${className}"` : ''}>`;
}

/**
 * The bound elements of one composition (a document for the top level, or an instance root) that do not hold
 * their current value: content overflowing the element's box, a box reaching out of the composition root, or a
 * box overlapping a laid-out sibling (`variable_overflows`, `variable_overlaps`; warnings). Boxes are measured as
 * laid out, without transforms, so the answer does not depend on the frame shown.
 */
export function layoutIssues(scope: Element | Document): Issue[] {
  const root = scopeElement(scope);
  const owner = compositionOwner(root);
  const issues: Issue[] = [];
  for (const element of root.querySelectorAll(BOUND)) {
    if (compositionOwner(element) !== owner || !isLaidOut(element)) continue;
    const attribute = element.hasAttribute(Attr.varText) ? Attr.varText : Attr.varSrc;
    const id = element.getAttribute(attribute) ?? '';
    const box = layoutBox(element);
    const overflows = overflowsOwnBox(element);
    if (overflows || !isInside(box, rootBox(element) ?? box)) {
      const where = overflows ? 'its content overflows the box' : 'its box reaches out of the composition';
      issues.push(
        issue(
          Code.overflows,
          [attribute, id],
          `${label(element)} showing "${id}" does not hold it: ${where}`,
          'warning',
        ),
      );
    }
    for (const sibling of element.parentElement?.children ?? []) {
      if (sibling === element || !isLaidOut(sibling) || !intersects(box, layoutBox(sibling))) continue;
      issues.push(
        issue(
          Code.overlaps,
          [attribute, id],
          `${label(element)} showing "${id}" overlaps its sibling ${label(sibling)}`,
          'warning',
        ),
      );
    }
  }
  return issues;
}
