import { Attr } from './constants.js';
import { colorGradingFilter, resolveColorGrading } from './color-grading.js';
import { BindingIssueCode as Code, issue, describe, type Issue } from './issues.js';
import { isBindableSrcTag, isBindableTextTag, safeMediaUrl, sanitizeCssValue } from './safety.js';
import { compositionOwner, scopeElement } from './scope.js';
import { fitIssues, fitText } from './fit.js';
import type { VariableValues } from './values.js';

const BOUND = `[${Attr.varSrc}],[${Attr.varText}],[${Attr.colorGrading}]`;
const COMPOSITION = `[${Attr.compositionId}]`;
const NESTED_COMPOSITION = `${COMPOSITION} ${COMPOSITION}`;
// Values made only of these characters always form valid CSS tokens: CSS cannot refuse them, so they are not read back.
const PLAIN_CSS = /^[\w\s#.,%+-]*$/;
// The URL safety verdicts of recent `data-var-src` values: the same few URLs come back on every update.
const checkedUrls = new Map<string, string | undefined>();
const CHECKED_URLS_MAX = 256;
// The lookbehind starts the trailing match only where a blank run starts: linear however long inner runs are.
const EDGE_BLANKS = /^[ \t]+|(?<![ \t])[ \t]+$/g;

// What the author wrote, so that clearing a value later restores it (and re-applying stays idempotent).
const authoredSrc = new WeakMap<Element, string | null>();
const authoredFilter = new WeakMap<Element, string>();
const appliedProperties = new WeakMap<Element, ReadonlyMap<string, string>>();
const resolvedGradings = new WeakMap<Element, Record<string, unknown>>();

/** The attributes that bind a value into an element. */
type BindingAttr = typeof Attr.varSrc | typeof Attr.varText;

/** A binding on a tag that may not carry it (one text for the runtime and lint). */
export function bindingTagNotAllowed(
  attribute: BindingAttr,
  id: string,
  tag: string,
): Issue<typeof Code.tagNotAllowed> {
  const instead =
    attribute === Attr.varSrc
      ? 'only img, video, audio and source may carry it'
      : 'its text would run as code or become markup; bind an element that shows text, such as <span>';
  return issue(Code.tagNotAllowed, [attribute, id], `"${attribute}" is not honoured on <${tag}>: ${instead}`);
}

/** A binding naming a variable its composition does not declare (one text for the runtime and lint). */
export function bindingUndeclared(attribute: BindingAttr, id: string): Issue<typeof Code.undeclared> {
  return issue(
    Code.undeclared,
    [attribute, id],
    `"${attribute}" names "${id}", which this composition does not declare`,
  );
}

/** The text a scalar value shows, or `undefined` for a value that is not scalar. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && value !== null) {
    const { name, url } = value as { name?: unknown; url?: unknown };
    if (typeof name === 'string') return name; // a font applies its family name
    if (typeof url === 'string') return url; // an image applies its URL
  }
  return undefined;
}

function mediaUrl(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'url' in value) return (value as { url: unknown }).url;
  return value;
}

/**
 * Applies resolved values to a composition: `data-var-src`, `data-var-text` (fitted where `data-var-fit` asks),
 * `data-color-grading` references and one `--{id}` CSS custom property per scalar on the root. Only elements owned by the root's composition are
 * touched (nested sub-compositions get their own call). Idempotent; refused bindings are returned as issues,
 * never thrown, and leave the authored content in place.
 *
 * @example
 * const issues = applyBindings(document, resolveVariables(declarations, { overrides }).values);
 */
export function applyBindings(root: Element | Document, values: VariableValues): Issue[] {
  const scope = scopeElement(root);
  const owner = compositionOwner(scope);
  const issues: Issue[] = [];
  applyCssProperties(scope, values, issues);
  const bound = scope.matches(BOUND) ? [scope, ...scope.querySelectorAll(BOUND)] : scope.querySelectorAll(BOUND);
  // Ownership only needs checking when a sub-composition is nested inside this scope's composition (the common
  // case has none). A document scope contains its own root composition, which does not count.
  const nested = scope.querySelector(scope.matches(COMPOSITION) ? COMPOSITION : NESTED_COMPOSITION) !== null;
  const fitting: Element[] = [];
  for (const element of bound) {
    if (nested && compositionOwner(element) !== owner) continue;
    if (element.hasAttribute(Attr.varSrc)) bindSrc(element, values, issues);
    if (element.hasAttribute(Attr.varText)) bindText(element, values, issues);
    if (element.hasAttribute(Attr.colorGrading)) bindColorGrading(element, values, issues);
    if (element.hasAttribute(Attr.varFit) && element.hasAttribute(Attr.varText)) fitting.push(element);
  }
  // Fitted once every value is in: a size or text set later in the loop may change the box.
  for (const element of fitting) {
    issues.push(...fitIssues(element));
    fitText(element);
  }
  return issues;
}

function bindSrc(element: Element, values: VariableValues, issues: Issue[]): void {
  const id = element.getAttribute(Attr.varSrc) ?? '';
  const tag = element.localName;
  if (!isBindableSrcTag(tag)) {
    issues.push(bindingTagNotAllowed(Attr.varSrc, id, tag));
    return;
  }
  if (!authoredSrc.has(element)) authoredSrc.set(element, element.getAttribute('src'));
  const value = values[id];
  let next = authoredSrc.get(element) ?? null;
  if (!Object.hasOwn(values, id)) {
    issues.push(bindingUndeclared(Attr.varSrc, id));
  } else if (value !== null && value !== '') {
    const url = checkedMediaUrl(mediaUrl(value));
    if (url === undefined) {
      issues.push(
        issue(
          Code.urlRefused,
          [Attr.varSrc, id],
          `"data-var-src" refused the value of "${id}": ${describe(value)} is not an allowed media URL`,
        ),
      );
    } else {
      next = url;
    }
  }
  if (element.getAttribute('src') === next) return;
  if (next === null) element.removeAttribute('src');
  else element.setAttribute('src', next);
  // A <source> change only takes effect when its media element reloads.
  const media = tag === 'source' ? element.parentElement : null;
  if (media && 'load' in media && typeof media.load === 'function') media.load();
}

/** {@link safeMediaUrl}, remembered per string (bounded, so a stream of new URLs cannot grow it). */
function checkedMediaUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return safeMediaUrl(value);
  if (checkedUrls.has(value)) return checkedUrls.get(value);
  if (checkedUrls.size >= CHECKED_URLS_MAX) checkedUrls.clear();
  const url = safeMediaUrl(value);
  checkedUrls.set(value, url);
  return url;
}

function bindText(element: Element, values: VariableValues, issues: Issue[]): void {
  const id = element.getAttribute(Attr.varText) ?? '';
  // Checked on every apply, so an element moved since, or created later, is refused too.
  if (!isBindableTextTag(element.localName)) {
    issues.push(bindingTagNotAllowed(Attr.varText, id, element.localName));
    return;
  }
  if (!Object.hasOwn(values, id)) {
    issues.push(bindingUndeclared(Attr.varText, id));
    return;
  }
  const text = scalarText(values[id]);
  if (text === undefined) {
    issues.push(
      issue(
        Code.valueNotScalar,
        [Attr.varText, id],
        `"data-var-text" needs a scalar, but "${id}" is ${describe(values[id])}`,
      ),
    );
    return;
  }
  // Replace only the element's own text: the first own text node takes the value, others go, child elements survive.
  let first: Node | undefined;
  for (let node = element.firstChild; node;) {
    const next = node.nextSibling;
    if (node.nodeType === 3 /* TEXT_NODE */) {
      if (!first) first = node;
      else node.remove();
    }
    node = next;
  }
  if (!first) element.insertBefore(element.ownerDocument.createTextNode(text), element.firstChild);
  else if (first.nodeValue !== text) first.nodeValue = text;
}

function bindColorGrading(element: Element, values: VariableValues, issues: Issue[]): void {
  let grading: unknown;
  try {
    grading = JSON.parse(element.getAttribute(Attr.colorGrading) ?? '');
  } catch {
    grading = undefined;
  }
  const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined;
  if (style && !authoredFilter.has(element)) authoredFilter.set(element, style.filter);
  let resolved: Record<string, unknown> | undefined;
  if (typeof grading === 'object' && grading !== null && !Array.isArray(grading)) {
    resolved = resolveColorGrading(grading as Record<string, unknown>, values);
    resolvedGradings.set(element, resolved);
  } else {
    // A grading that turned malformed must not leave the previous one applied.
    resolvedGradings.delete(element);
    issues.push(
      issue(
        Code.colorGradingInvalid,
        [Attr.colorGrading],
        `"data-color-grading" on <${element.localName}> must be a JSON object`,
      ),
    );
  }
  if (!style) return;
  const filter = [authoredFilter.get(element), resolved && colorGradingFilter(resolved)].filter(Boolean).join(' ');
  if (style.filter !== filter) style.filter = filter;
}

/** The color grading of an element after its `$name` references were resolved by {@link applyBindings}. */
export function resolvedColorGrading(element: Element): Record<string, unknown> | undefined {
  return resolvedGradings.get(element);
}

/**
 * Whether CSS takes `css` as the custom property `name`: asked of `CSS.supports`, not read back, since WebKit
 * re-serializes an accepted value (`url(x)` → `url("x")`); read back where there is no `CSS` (linkedom in Node).
 */
function cssAccepts(style: CSSStyleDeclaration, name: string, css: string): boolean {
  if (typeof CSS !== 'undefined' && typeof CSS.supports === 'function') return CSS.supports(name, css);
  style.setProperty(name, css);
  return style.getPropertyValue(name) === css;
}

function applyCssProperties(scope: Element, values: VariableValues, issues: Issue[]): void {
  const style = (scope as HTMLElement).style;
  if (!style) return;
  const previous = appliedProperties.get(scope) ?? new Map<string, string>();
  const next = new Map<string, string>();
  for (const id in values) {
    const text = scalarText(values[id]);
    if (text === undefined) continue;
    const name = `--${id}`;
    // CSS trims spaces and tabs around a custom property; trimming first keeps a re-apply a no-op.
    const css = sanitizeCssValue(text).replace(EDGE_BLANKS, '');
    next.set(name, css);
    // Compare with what we wrote last time rather than reading the style back: the hot path stays write-only.
    if (previous.get(name) === css && style.getPropertyValue(name) === css) continue;
    if (css === '') {
      style.removeProperty(name);
      continue;
    }
    if (PLAIN_CSS.test(css) || cssAccepts(style, name, css)) style.setProperty(name, css);
    else {
      // CSS would refuse the value and keep the old one: clear it, so no stale value survives.
      style.removeProperty(name);
      next.delete(name);
      issues.push(
        issue(Code.cssRejected, [name], `CSS refused the value of "${id}" as "${name}": ${describe(css)}`, 'warning'),
      );
    }
  }
  for (const name of previous.keys()) if (!next.has(name)) style.removeProperty(name);
  appliedProperties.set(scope, next);
}
