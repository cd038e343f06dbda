/**
 * Lint and metadata cases shared by the browser runner (real DOMParser) and the Node runner (parse5 + linkedom):
 * both assert the exact findings listed here, so a difference between the two parsers fails one of them.
 * Pure data and pure functions only: no DOM or Node imports.
 */
import type { Issue } from '../../src/runtime/issues.js';
import { lintComposition, LintCode, type LintOptions } from '../../src/runtime/lint.js';
import { extractCompositionMetadata, MetadataIssueCode } from '../../src/runtime/metadata.js';

const DECLARATIONS = 'data-composition-variables';
const VALUES = 'data-variable-values';
const { rootAttributeInvalid, durationMissing, durationFromTimeline } = MetadataIssueCode;

/** Every code a lint case must cover, failing and passing. */
export const COVERED_CODES: readonly string[] = [
  ...Object.values(LintCode),
  rootAttributeInvalid,
  durationMissing,
  durationFromTimeline,
];

/** A finding as one comparable line: `severity code path/segments`. */
export function describeFinding(finding: Issue): string {
  return `${finding.severity} ${finding.code} ${finding.path.join('/')}`.trimEnd();
}

const error = (code: string, ...path: (string | number)[]) => `error ${code} ${path.join('/')}`.trimEnd();
const warning = (code: string, ...path: (string | number)[]) => `warning ${code} ${path.join('/')}`.trimEnd();

/** JSON (or raw text) made safe inside a single-quoted attribute. */
export function attr(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replaceAll('&', '&amp;').replaceAll("'", '&#39;');
}

/** A full document: declarations on `<html>`, the composition root in the body. */
export function fullDocument(
  declarations: unknown,
  body: string,
  rootAttributes = 'data-width="1920" data-height="1080" data-duration="5"',
): string {
  return (
    `<!doctype html><html ${DECLARATIONS}='${attr(declarations)}'><head><meta charset="utf-8"></head><body>` +
    `<div data-composition-id="main" ${rootAttributes}>${body}</div></body></html>`
  );
}

const NO_DURATION = 'data-width="1920" data-height="1080"';
const REGISTERS_TIMELINE =
  '<script>window.__timelines = window.__timelines || {}; window.__timelines.main = gsap.timeline();</script>';

/** A sub-composition file: a `<template>` whose root carries its own declarations. */
export function templateFragment(
  declarations: unknown,
  body: string,
  rootAttributes = 'data-width="640" data-height="360" data-duration="2"',
): string {
  return `<template id="card"><div data-composition-id="card" ${rootAttributes} ${DECLARATIONS}='${attr(declarations)}'>${body}</div></template>`;
}

/** An inline nested composition with its own declarations, inside a parent composition. */
function inlineNested(declarations: unknown, body: string, extra = ''): string {
  return `<div data-composition-id="inner" ${DECLARATIONS}='${attr(declarations)}'${extra}>${body}</div>`;
}

const text = (id: string, more: object = {}) => ({ id, type: 'string', label: id, default: 'x', ...more });
const number = (id: string, more: object = {}) => ({ id, type: 'number', label: id, default: 1, ...more });
const image = (id: string, value = 'logo.png') => ({ id, type: 'image', label: id, default: value });
const choice = (id: string, value: string, options: string[]) => ({
  id,
  type: 'enum',
  label: id,
  default: value,
  options: options.map((option) => ({ value: option, label: option })),
});
const shows = (...ids: string[]) => ids.map((id) => `<span data-var-text="${id}"></span>`).join('');

export interface LintCase {
  /** The code this case is about. */
  readonly code: string;
  /** Whether `code` must be among the findings (`reported`) or not (`absent`, a close variant that is fine). */
  readonly expect: 'reported' | 'absent';
  readonly name: string;
  readonly html: string;
  /** Files `readSource` serves by path; an `Error` is thrown by the reader. No entry means no reader. */
  readonly sources?: Readonly<Record<string, string | Error>>;
  /**
   * The project's files (`hasFile` answers from them, and `readFile` from `sources`); the case is `index.html`. No
   * entry means no `hasFile`.
   */
  readonly files?: readonly string[];
  /** Every finding, as {@link describeFinding} writes it. Order does not matter. */
  readonly findings: readonly string[];
}

const card = templateFragment([text('name'), number('age')], shows('name', 'age'));
const cardHost = (values: string, source = 'card.html') =>
  fullDocument([], `<div data-composition-id="card" data-composition-src="${source}" ${VALUES}='${values}'></div>`);

function reported(
  code: string,
  name: string,
  html: string,
  findings: string[],
  sources?: LintCase['sources'],
): LintCase {
  return { code, expect: 'reported', name, html, findings, ...(sources ? { sources } : {}) };
}
function absent(
  code: string,
  name: string,
  html: string,
  findings: string[] = [],
  sources?: LintCase['sources'],
): LintCase {
  return { code, expect: 'absent', name, html, findings, ...(sources ? { sources } : {}) };
}

const C = LintCode;
const D = DECLARATIONS;
const inProject = (testCase: LintCase, files: string[]): LintCase => ({ ...testCase, files });
const fileMissing = (...path: string[]) => error(C.projectFileMissing, 'index.html', ...path);
const NAMES_FILES = '<img src="img/logo.png" alt=""><video poster="p.png"></video>';

export const lintCases: readonly LintCase[] = [
  // declarations: JSON and shape
  reported(C.jsonInvalid, 'truncated JSON on <html>', fullDocument('[{"id": "a",', ''), [error(C.jsonInvalid, D)]),
  reported(C.jsonInvalid, 'truncated JSON on a template root', templateFragment('[{', ''), [error(C.jsonInvalid, D)]),
  reported(C.jsonInvalid, 'single-quoted JSON', fullDocument("[{'id':'a'}]", ''), [error(C.jsonInvalid, D)]),
  absent(C.jsonInvalid, 'the same declaration as valid JSON', fullDocument([text('a')], shows('a'))),
  absent(C.jsonInvalid, 'a blank attribute means no declarations', fullDocument('  ', '')),
  reported(C.notArray, 'an object instead of an array', fullDocument(text('a'), ''), [error(C.notArray, D)]),
  reported(C.notArray, 'a bare string', templateFragment('"a"', ''), [error(C.notArray, D)]),
  absent(C.notArray, 'the object wrapped in an array', fullDocument([text('a')], shows('a'))),
  reported(C.notObject, 'a number entry', fullDocument([42], ''), [error(C.notObject, D, 0)]),
  reported(C.notObject, 'a null entry after a valid one', fullDocument([text('a'), null], shows('a')), [
    error(C.notObject, D, 1),
  ]),
  reported(C.notObject, 'a nested array entry', templateFragment([[text('a')]], ''), [error(C.notObject, D, 0)]),
  absent(C.notObject, 'an object entry', templateFragment([text('a')], shows('a'))),

  // declarations: fields
  reported(C.fieldMissing, 'no id', fullDocument([{ type: 'string', label: 'A', default: '' }], ''), [
    error(C.fieldMissing, D, 0, 'id'),
  ]),
  reported(C.fieldMissing, 'no type', fullDocument([{ id: 'a', label: 'A', default: '' }], shows('a')), [
    error(C.fieldMissing, D, 0, 'type'),
    error(C.bindingUndeclared, 'data-var-text', 'a'),
  ]),
  reported(C.fieldMissing, 'no label', templateFragment([{ id: 'a', type: 'string', default: '' }], ''), [
    error(C.fieldMissing, D, 0, 'label'),
  ]),
  reported(C.fieldMissing, 'no default', fullDocument([{ id: 'a', type: 'number', label: 'A' }], ''), [
    error(C.fieldMissing, D, 0, 'default'),
  ]),
  reported(
    C.fieldMissing,
    'an empty object misses all four',
    fullDocument([{}], ''),
    ['id', 'type', 'label', 'default'].map((field) => error(C.fieldMissing, D, 0, field)),
  ),
  absent(
    C.fieldMissing,
    'all four present, default falsy',
    fullDocument([{ id: 'a', type: 'boolean', label: '', default: false }], shows('a')),
  ),
  reported(C.fieldInvalid, 'a numeric label', fullDocument([text('a', { label: 3 })], ''), [
    error(C.fieldInvalid, D, 0, 'label'),
  ]),
  reported(C.fieldInvalid, 'an empty id', fullDocument([text('')], ''), [error(C.fieldInvalid, D, 0, 'id')]),
  reported(C.fieldInvalid, 'min above max', templateFragment([number('n', { min: 5, max: 2 })], ''), [
    error(C.fieldInvalid, D, 0, 'min'),
  ]),
  reported(
    C.fieldInvalid,
    'enum options that are not objects',
    fullDocument([{ ...choice('e', 'a', ['a']), options: ['a'] }], ''),
    [error(C.fieldInvalid, D, 0, 'options')],
  ),
  absent(C.fieldInvalid, 'min equal to max', templateFragment([number('n', { min: 1, max: 1 })], shows('n'))),
  reported(
    C.typeUnknown,
    'type "video"',
    fullDocument([{ id: 'a', type: 'video', label: 'A', default: 'a.mp4' }], ''),
    [error(C.typeUnknown, D, 0, 'type')],
  ),
  reported(C.typeUnknown, 'a type in capitals', fullDocument([{ ...text('a'), type: 'String' }], ''), [
    error(C.typeUnknown, D, 0, 'type'),
  ]),
  absent(C.typeUnknown, 'type "image"', fullDocument([image('a')], '<img data-var-src="a">')),
  reported(C.defaultTypeMismatch, 'a string default on a number', fullDocument([number('n', { default: '3' })], ''), [
    error(C.defaultTypeMismatch, D, 0, 'default'),
  ]),
  reported(
    C.defaultTypeMismatch,
    'a three-digit color',
    templateFragment([{ id: 'c', type: 'color', label: 'C', default: '#fff' }], ''),
    [error(C.defaultTypeMismatch, D, 0, 'default')],
  ),
  reported(
    C.defaultTypeMismatch,
    'a string boolean',
    fullDocument([{ id: 'b', type: 'boolean', label: 'B', default: 'true' }], ''),
    [error(C.defaultTypeMismatch, D, 0, 'default')],
  ),
  absent(
    C.defaultTypeMismatch,
    'a six-digit color',
    templateFragment([{ id: 'c', type: 'color', label: 'C', default: '#ffffff' }], shows('c')),
  ),
  reported(C.duplicateId, 'the same id twice', fullDocument([text('a'), number('a')], shows('a')), [
    error(C.duplicateId, D, 1, 'id'),
  ]),
  absent(C.duplicateId, 'ids that differ only in case', fullDocument([text('a'), text('A')], shows('a', 'A'))),
  reported(
    C.enumOptionsMissing,
    'an enum without options',
    fullDocument([{ id: 'e', type: 'enum', label: 'E', default: 'a' }], ''),
    [error(C.enumOptionsMissing, D, 0, 'options')],
  ),
  absent(C.enumOptionsMissing, 'an enum with options', fullDocument([choice('e', 'a', ['a', 'b'])], shows('e'))),
  reported(
    C.enumDefaultNotInOptions,
    'a default missing from the options',
    templateFragment([choice('e', 'c', ['a', 'b'])], ''),
    [error(C.enumDefaultNotInOptions, D, 0, 'default')],
  ),
  reported(
    C.enumDefaultNotInOptions,
    'a default that is an option label only',
    fullDocument([{ ...choice('e', 'A', ['a']), options: [{ value: 'a', label: 'A' }] }], ''),
    [error(C.enumDefaultNotInOptions, D, 0, 'default')],
  ),
  absent(
    C.enumDefaultNotInOptions,
    'a default among the options',
    templateFragment([choice('e', 'b', ['a', 'b'])], shows('e')),
  ),
  reported(
    C.defaultOutOfRange,
    'a default above max',
    fullDocument([number('n', { default: 11, max: 10 })], shows('n')),
    [warning(C.defaultOutOfRange, D, 0, 'default')],
  ),
  reported(
    C.defaultOutOfRange,
    'a default below min',
    templateFragment([number('n', { default: -1, min: 0 })], shows('n')),
    [warning(C.defaultOutOfRange, D, 0, 'default')],
  ),
  absent(
    C.defaultOutOfRange,
    'a default on the bound',
    fullDocument([number('n', { default: 10, min: 0, max: 10 })], shows('n')),
  ),
  reported(
    C.defaultTooLong,
    'a default one over maxLength',
    fullDocument([text('t', { default: 'abcd', maxLength: 3 })], shows('t')),
    [warning(C.defaultTooLong, D, 0, 'default')],
  ),
  absent(
    C.defaultTooLong,
    'a default exactly maxLength',
    fullDocument([text('t', { default: 'abc', maxLength: 3 })], shows('t')),
  ),

  // bindings
  reported(C.bindingUndeclared, 'data-var-text naming nothing', fullDocument([text('a')], shows('a', 'b')), [
    error(C.bindingUndeclared, 'data-var-text', 'b'),
  ]),
  reported(
    C.bindingUndeclared,
    'data-var-src naming nothing',
    templateFragment([image('a')], '<img data-var-src="a"><video data-var-src="clip"></video>'),
    [error(C.bindingUndeclared, 'data-var-src', 'clip')],
  ),
  reported(
    C.bindingUndeclared,
    'a binding whose declaration has an error',
    fullDocument([number('n', { default: 'x' })], shows('n')),
    [error(C.defaultTypeMismatch, D, 0, 'default'), error(C.bindingUndeclared, 'data-var-text', 'n')],
  ),
  reported(
    C.bindingUndeclared,
    'a nested composition binding a parent-only variable',
    fullDocument([text('title')], shows('title') + inlineNested([text('name')], shows('name', 'title'))),
    [error(C.bindingUndeclared, 'data-var-text', 'title')],
  ),
  absent(
    C.bindingUndeclared,
    'a nested composition binding its own variable',
    fullDocument([text('title')], shows('title') + inlineNested([text('title')], shows('title'))),
  ),
  absent(
    C.bindingUndeclared,
    'both bindings declared',
    templateFragment([text('a'), image('b')], `${shows('a')}<img data-var-src="b">`),
  ),
  ...['iframe', 'script', 'object', 'embed', 'div'].map((tag) =>
    reported(
      C.bindingTagNotAllowed,
      `data-var-src on <${tag}>`,
      fullDocument([image('m')], `<${tag} data-var-src="m"></${tag}>`),
      [error(C.bindingTagNotAllowed, 'data-var-src', 'm')],
    ),
  ),
  reported(
    C.bindingTagNotAllowed,
    'data-var-src on an upper-case <IFRAME>',
    templateFragment([image('m')], '<IFRAME data-var-src="m"></IFRAME>'),
    [error(C.bindingTagNotAllowed, 'data-var-src', 'm')],
  ),
  absent(
    C.bindingTagNotAllowed,
    'data-var-src on img, video, audio and source',
    fullDocument(
      [image('m')],
      '<img data-var-src="m"><video data-var-src="m"></video><audio data-var-src="m"></audio><video><source data-var-src="m"></video>',
    ),
  ),
  absent(C.bindingTagNotAllowed, 'data-var-text on a div', fullDocument([text('m')], '<div data-var-text="m"></div>')),

  // data-var-fit
  absent(
    C.fitInvalid,
    'shrink with a px and a ratio minimum, and with none',
    fullDocument(
      [text('m')],
      '<h1 data-var-text="m" data-var-fit="shrink" data-var-fit-min="12px"></h1><p data-var-text="m" data-var-fit="shrink" data-var-fit-min="0.5"></p><p data-var-text="m" data-var-fit="shrink" data-var-fit-min="1"></p><b data-var-text="m" data-var-fit="shrink"></b>',
    ),
  ),
  absent(
    C.fitMinInvalid,
    'data-var-fit-min of 0.25, .5 and 1.5px',
    fullDocument(
      [text('m')],
      '<h1 data-var-text="m" data-var-fit="shrink" data-var-fit-min="0.25"></h1><p data-var-text="m" data-var-fit="shrink" data-var-fit-min=".5"></p><b data-var-text="m" data-var-fit="shrink" data-var-fit-min="1.5px"></b>',
    ),
  ),
  ...['Shrink', 'clamp', '', 'shrink '].map((mode) =>
    reported(
      C.fitInvalid,
      `data-var-fit="${mode}"`,
      fullDocument([text('m')], `<h1 data-var-text="m" data-var-fit="${mode}"></h1>`),
      [error(C.fitInvalid, 'data-var-fit')],
    ),
  ),
  ...['0px', '0', '1.5', '-2px', '12', '12em', 'px', '', '0.5px.5', '99999px'].map((min) =>
    reported(
      C.fitMinInvalid,
      `data-var-fit-min="${min}"`,
      fullDocument([text('m')], `<h1 data-var-text="m" data-var-fit="shrink" data-var-fit-min="${min}"></h1>`),
      [error(C.fitMinInvalid, 'data-var-fit-min')],
    ),
  ),
  reported(
    C.fitWithoutText,
    'data-var-fit on an element without data-var-text',
    fullDocument([text('m')], '<h1 data-var-fit="shrink"><span data-var-text="m"></span></h1>'),
    [warning(C.fitWithoutText, 'data-var-fit')],
  ),
  absent(
    C.fitWithoutText,
    'data-var-fit with data-var-text on the same element',
    fullDocument([text('m')], '<h1 data-var-fit="shrink" data-var-text="m"></h1>'),
  ),
  ...['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript'].map((tag) =>
    reported(
      C.bindingTagNotAllowed,
      `data-var-text on <${tag}>`,
      fullDocument([text('m')], `<${tag} data-var-text="m"></${tag}>`),
      [error(C.bindingTagNotAllowed, 'data-var-text', 'm')],
    ),
  ),
  reported(
    C.bindingTagNotAllowed,
    'data-var-text on <script type="module"> in <head>',
    `<!doctype html><html ${D}='${attr([text('m')])}'><head><script type="module" data-var-text="m"></script></head><body><div data-composition-id="main" data-duration="1"></div></body></html>`,
    [error(C.bindingTagNotAllowed, 'data-var-text', 'm')],
  ),
  reported(
    C.bindingTagNotAllowed,
    'data-var-text on an upper-case <SCRIPT> in a template',
    templateFragment([text('m')], '<SCRIPT data-var-text="m"></SCRIPT>'),
    [error(C.bindingTagNotAllowed, 'data-var-text', 'm')],
  ),
  reported(
    C.bindingTagNotAllowed,
    'data-var-text on SVG <script> and <style>',
    fullDocument([text('m')], '<svg><script data-var-text="m"></script><style data-var-text="m"></style></svg>'),
    [error(C.bindingTagNotAllowed, 'data-var-text', 'm'), error(C.bindingTagNotAllowed, 'data-var-text', 'm')],
  ),
  reported(
    C.bindingTagNotAllowed,
    'data-var-text on a MathML-namespace <style>',
    fullDocument([text('m')], '<math><style data-var-text="m"></style></math>'),
    [error(C.bindingTagNotAllowed, 'data-var-text', 'm')],
  ),
  reported(
    C.bindingTagNotAllowed,
    'data-var-text on <style> naming an undeclared id',
    fullDocument([], '<style data-var-text="ghost"></style>'),
    [error(C.bindingTagNotAllowed, 'data-var-text', 'ghost'), error(C.bindingUndeclared, 'data-var-text', 'ghost')],
  ),
  absent(
    C.bindingTagNotAllowed,
    'data-var-text on textarea, title, option, SVG text and set, whose text is inert',
    fullDocument(
      [text('m')],
      '<textarea data-var-text="m"></textarea><title data-var-text="m"></title><select><option data-var-text="m"></option></select><svg><text data-var-text="m"></text><set data-var-text="m"/></svg>',
    ),
  ),
  absent(
    C.bindingTagNotAllowed,
    'data-var-text on <plaintext>: no tag ends it, so its text stays text',
    fullDocument([text('m')], '<plaintext data-var-text="m">'),
  ),

  // media defaults
  reported(
    C.unsafeMediaDefault,
    'a javascript: default bound by data-var-src',
    fullDocument([text('u', { default: 'javascript:alert(1)' })], '<img data-var-src="u">'),
    [error(C.unsafeMediaDefault, D, 'u', 'default')],
  ),
  reported(
    C.unsafeMediaDefault,
    'a mixed-case javascript: default with leading space',
    templateFragment([text('u', { default: ' JaVaScRiPt:alert(1)' })], '<video data-var-src="u"></video>'),
    [error(C.unsafeMediaDefault, D, 'u', 'default')],
  ),
  reported(
    C.unsafeMediaDefault,
    'a data:text/html default bound by data-var-src',
    fullDocument(
      [text('u', { default: 'data:text/html,<script>alert(1)</script>' })],
      '<audio data-var-src="u"></audio>',
    ),
    [error(C.unsafeMediaDefault, D, 'u', 'default')],
  ),
  reported(
    C.unsafeMediaDefault,
    'an image default that is javascript:, not bound by src',
    fullDocument([image('logo', 'javascript:alert(1)')], '<div style="background: var(--logo)"></div>'),
    [error(C.unsafeMediaDefault, D, 'logo', 'default')],
  ),
  reported(
    C.unsafeMediaDefault,
    'an image default that is file:',
    templateFragment([image('logo', 'file:///etc/passwd')], '<img data-var-src="logo">'),
    [error(C.unsafeMediaDefault, D, 'logo', 'default')],
  ),
  reported(
    C.unsafeMediaDefault,
    'an unsafe image default in an inline nested composition',
    fullDocument([], inlineNested([image('logo', 'vbscript:x')], '<img data-var-src="logo">')),
    [error(C.unsafeMediaDefault, D, 'logo', 'default')],
  ),
  absent(
    C.unsafeMediaDefault,
    'a data:image/png default',
    fullDocument([image('logo', 'data:image/png;base64,iVBORw0KGgo=')], '<img data-var-src="logo">'),
  ),
  absent(
    C.unsafeMediaDefault,
    'https, relative and empty defaults',
    templateFragment(
      [image('a', 'https://cdn.example/a.png'), text('b', { default: '../b.mp4' }), image('c', '')],
      '<img data-var-src="a"><video data-var-src="b"></video><img data-var-src="c">',
    ),
  ),
  absent(
    C.unsafeMediaDefault,
    'a javascript: string shown as text only',
    fullDocument([text('t', { default: 'javascript:alert(1)' })], shows('t')),
  ),

  // host data-variable-values
  reported(
    C.variableValuesJsonInvalid,
    'truncated JSON',
    cardHost('{"name":'),
    [error(C.variableValuesJsonInvalid, VALUES)],
    { 'card.html': card },
  ),
  reported(C.variableValuesJsonInvalid, 'an array', cardHost('["Bo"]'), [error(C.variableValuesJsonInvalid, VALUES)], {
    'card.html': card,
  }),
  reported(C.variableValuesJsonInvalid, 'null', cardHost('null'), [error(C.variableValuesJsonInvalid, VALUES)]),
  reported(C.variableValuesJsonInvalid, 'a string', cardHost('"name=Bo"'), [
    error(C.variableValuesJsonInvalid, VALUES),
  ]),
  absent(C.variableValuesJsonInvalid, 'an empty object', cardHost('{}'), [], { 'card.html': card }),
  reported(
    C.variableValuesUndeclared,
    'an id the sub-composition file does not declare',
    cardHost('{"name":"Bo","nickname":"B"}'),
    [warning(C.variableValuesUndeclared, VALUES, 'nickname')],
    { 'card.html': card },
  ),
  reported(
    C.variableValuesUndeclared,
    'an id declared by the parent but not the sub-composition',
    fullDocument(
      [text('title')],
      `${shows('title')}<div data-composition-id="card" data-composition-src="card.html" ${VALUES}='{"title":"T"}'></div>`,
    ),
    [warning(C.variableValuesUndeclared, VALUES, 'title')],
    { 'card.html': card },
  ),
  reported(
    C.variableValuesUndeclared,
    'an inline nested composition given an id it does not declare',
    fullDocument([], inlineNested([text('name')], shows('name'), ` ${VALUES}='{"other":"x"}'`)),
    [warning(C.variableValuesUndeclared, VALUES, 'other')],
  ),
  absent(
    C.variableValuesUndeclared,
    'only ids the sub-composition file declares',
    cardHost('{"name":"Bo","age":3}'),
    [],
    { 'card.html': card },
  ),
  absent(
    C.variableValuesUndeclared,
    'an inline nested composition given its own id',
    fullDocument([], inlineNested([text('name')], shows('name'), ` ${VALUES}='{"name":"Bo"}'`)),
  ),
  reported(
    C.variableValuesInvalid,
    'a number for a string',
    cardHost('{"name":42}'),
    [error(C.variableValuesInvalid, VALUES, 'name')],
    { 'card.html': card },
  ),
  reported(
    C.variableValuesInvalid,
    'a string for a number',
    cardHost('{"age":"3"}'),
    [error(C.variableValuesInvalid, VALUES, 'age')],
    { 'card.html': card },
  ),
  reported(
    C.variableValuesInvalid,
    'an enum value outside the options, inline',
    fullDocument(
      [],
      inlineNested([choice('mood', 'calm', ['calm', 'loud'])], shows('mood'), ` ${VALUES}='{"mood":"angry"}'`),
    ),
    [error(C.variableValuesInvalid, VALUES, 'mood')],
  ),
  absent(C.variableValuesInvalid, 'values of the declared types', cardHost('{"name":"42","age":42}'), [], {
    'card.html': card,
  }),

  // color grading
  reported(C.colorGradingInvalid, 'malformed JSON', fullDocument([], '<div data-color-grading=\'{"adjust":\'></div>'), [
    error(C.colorGradingInvalid, 'data-color-grading'),
  ]),
  reported(C.colorGradingInvalid, 'an array', templateFragment([], '<div data-color-grading="[1]"></div>'), [
    error(C.colorGradingInvalid, 'data-color-grading'),
  ]),
  reported(C.colorGradingInvalid, 'an empty attribute', fullDocument([], '<div data-color-grading></div>'), [
    error(C.colorGradingInvalid, 'data-color-grading'),
  ]),
  absent(
    C.colorGradingInvalid,
    'a JSON object',
    fullDocument([], '<div data-color-grading=\'{"adjust":{"exposure":0.5}}\'></div>'),
  ),
  reported(
    C.colorGradingReferenceUndeclared,
    'a $reference to nothing',
    fullDocument(
      [number('exposure')],
      `${shows('exposure')}<div data-color-grading='{"adjust":{"exposure":"$exposur"}}'></div>`,
    ),
    [warning(C.colorGradingReferenceUndeclared, 'data-color-grading', 'exposur')],
  ),
  reported(
    C.colorGradingReferenceUndeclared,
    'a ${reference} to nothing',
    templateFragment([], `<div data-color-grading='{"effects":{"blur":"\${soft}"}}'></div>`),
    [warning(C.colorGradingReferenceUndeclared, 'data-color-grading', 'soft')],
  ),
  absent(
    C.colorGradingReferenceUndeclared,
    'a $reference and a ${reference} to declared variables',
    fullDocument(
      [number('exposure'), number('soft')],
      `<div data-color-grading='{"adjust":{"exposure":"$exposure"},"effects":{"blur":"\${soft}"}}'></div>`,
    ),
  ),
  absent(
    C.colorGradingReferenceUndeclared,
    'a partial "$" inside a longer string stays text',
    fullDocument([], `<div data-color-grading='{"preset":"cost $5"}'></div>`),
  ),

  // unused variables
  reported(C.variableUnused, 'declared and never used', fullDocument([text('a'), text('b')], shows('a')), [
    warning(C.variableUnused, D, 'b'),
  ]),
  reported(
    C.variableUnused,
    'only a longer custom property is used',
    fullDocument([text('a')], '<style>h1 { color: var(--ab) }</style>'),
    [warning(C.variableUnused, D, 'a')],
  ),
  reported(
    C.variableUnused,
    'a script naming a longer identifier',
    templateFragment([text('title')], '<script>const subtitle = 1;</script>'),
    [warning(C.variableUnused, D, 'title')],
  ),
  reported(
    C.variableUnused,
    'a nested composition in a template no binding points into',
    templateFragment([text('a')], shows('a') + inlineNested([text('b')], '')),
    [warning(C.variableUnused, D, 'b')],
  ),
  absent(C.variableUnused, 'bound by data-var-text', fullDocument([text('a')], shows('a'))),
  absent(C.variableUnused, 'bound by data-var-src', templateFragment([image('a')], '<img data-var-src="a">')),
  absent(
    C.variableUnused,
    'var(--id) in a <style>',
    fullDocument([text('a')], '<style>h1 { color: var(--a) }</style>'),
  ),
  absent(
    C.variableUnused,
    'var(--id) in a style attribute',
    templateFragment(
      [{ id: 'bg', type: 'color', label: 'Bg', default: '#000000' }],
      '<div style="background: var(--bg, red)"></div>',
    ),
  ),
  absent(
    C.variableUnused,
    '$id in a color grading',
    fullDocument([number('exposure')], '<div data-color-grading=\'{"adjust":{"exposure":"$exposure"}}\'></div>'),
  ),
  absent(
    C.variableUnused,
    'named in a script',
    fullDocument([text('title')], '<script>document.title = __fx.getVariables().title;</script>'),
  ),

  // sub-composition sources
  reported(
    C.sourceUnreadable,
    'the reader has no such file',
    cardHost('{"name":"Bo"}', 'missing.html'),
    [warning(C.sourceUnreadable, 'data-composition-src', 'missing.html')],
    { 'card.html': card },
  ),
  reported(
    C.sourceUnreadable,
    'the reader throws',
    cardHost('{"name":"Bo"}'),
    [warning(C.sourceUnreadable, 'data-composition-src', 'card.html')],
    { 'card.html': new Error('ENOENT: no such file') },
  ),
  absent(C.sourceUnreadable, 'the reader has the file', cardHost('{"name":"Bo"}'), [], { 'card.html': card }),
  absent(C.sourceUnreadable, 'no reader given: values are not checked', cardHost('{"nickname":"Bo"}')),
  reported(
    C.assetUrlRootRelative,
    'an image loaded from the server root',
    fullDocument([], '<img src="/logo.png" alt="">'),
    [warning(C.assetUrlRootRelative, 'src', '/logo.png')],
  ),
  reported(
    C.assetUrlRootRelative,
    'a sub-composition named from the server root',
    fullDocument([], '<div data-composition-src="/parts/card.html"></div>'),
    [warning(C.assetUrlRootRelative, 'data-composition-src', '/parts/card.html')],
  ),
  absent(
    C.assetUrlRootRelative,
    'relative and protocol-relative paths',
    fullDocument(
      [],
      '<img src="logo.png" alt=""><img src="./a.png" alt=""><img src="//cdn.example/a.png" alt=""><video poster="../p.png"></video>',
    ),
  ),

  reported(
    C.durationOverRenderLimit,
    'an 11-minute composition',
    fullDocument([], '', 'data-width="1920" data-height="1080" data-duration="660"'),
    [warning(C.durationOverRenderLimit, 'data-duration')],
  ),
  absent(
    C.durationOverRenderLimit,
    'exactly the limit',
    fullDocument([], '', 'data-width="1920" data-height="1080" data-duration="600"'),
  ),

  // files the project does not have
  inProject(
    reported(C.projectFileMissing, 'an image and a poster', fullDocument([], NAMES_FILES), [
      fileMissing('<img src>', 'img/logo.png'),
      fileMissing('<video poster>', 'p.png'),
    ]),
    [],
  ),
  inProject(
    reported(
      C.projectFileMissing,
      'a srcset candidate, CSS url()s, a font and a <source>',
      fullDocument(
        [],
        '<style>@font-face { font-family: F; src: url(f.woff2) } p { background: url("bg.png") }</style>' +
          '<img src="a.png" srcset="a.png 1x, a@2x.png 2x" alt=""><audio><source src="s.mp3"></audio>',
      ),
      [
        fileMissing('<img srcset>', 'a@2x.png'),
        fileMissing('<style> url()', 'f.woff2'),
        fileMissing('<style> url()', 'bg.png'),
        fileMissing('<source src>', 's.mp3'),
      ],
    ),
    ['a.png'],
  ),
  inProject(
    reported(
      C.projectFileMissing,
      "an image variable's default and a sub-composition, inside a <template>",
      templateFragment(
        [image('logo')],
        '<img data-var-src="logo" alt=""><div data-composition-src="parts/x.html"></div>',
      ),
      [
        fileMissing('image variable "logo" default', 'logo.png'),
        fileMissing('<div data-composition-src>', 'parts/x.html'),
      ],
    ),
    [],
  ),
  inProject(absent(C.projectFileMissing, 'files the project has', fullDocument([], NAMES_FILES)), [
    'img/logo.png',
    'p.png',
  ]),
  inProject(
    absent(
      C.projectFileMissing,
      'other hosts, data: URLs and links are not project files',
      fullDocument(
        [],
        '<img src="https://cdn.example/a.png" alt=""><img src="data:image/png;base64,AA==" alt=""><a href="page.html">x</a>',
      ),
    ),
    [],
  ),
  absent(C.projectFileMissing, 'without hasFile nothing is looked up', fullDocument([], NAMES_FILES)),
  {
    ...inProject(
      reported(
        C.projectFileMissing,
        "a linked stylesheet's url() and @font-face source, resolved against the stylesheet",
        fullDocument([], '<link rel="stylesheet" href="css/main.css"><link rel="stylesheet" href="css/gone.css">'),
        [
          error(C.projectFileMissing, 'css/main.css', 'url()', 'fonts/f.woff2'),
          error(C.projectFileMissing, 'css/main.css', 'url()', 'css/bg.png'),
          fileMissing('<link href>', 'css/gone.css'),
        ],
      ),
      ['css/main.css', 'img/ok.png'],
    ),
    sources: {
      'css/main.css':
        '@font-face { font-family: F; src: url("../fonts/f.woff2") format("woff2") } ' +
        'body { background: url(bg.png) } p { background: url(../img/ok.png), url(data:image/png;base64,AA==), url(https://cdn.example/x.png) }',
    },
  },
  {
    ...inProject(
      absent(
        C.projectFileMissing,
        "a linked stylesheet's files the project has, and a stylesheet that cannot be read",
        fullDocument([], '<link rel="stylesheet" href="a.css"><link rel="stylesheet" href="b.css">'),
      ),
      ['a.css', 'b.css', 'f.woff2'],
    ),
    sources: { 'a.css': '@font-face { font-family: F; src: url(f.woff2) }', 'b.css': new Error('EACCES') },
  },

  // root attributes (from metadata)
  reported(
    rootAttributeInvalid,
    'data-width="abc"',
    fullDocument([], '', 'data-width="abc" data-height="1080" data-duration="5"'),
    [error(rootAttributeInvalid, 'data-width')],
  ),
  reported(
    rootAttributeInvalid,
    'data-duration="-1"',
    templateFragment([], '', 'data-width="640" data-height="360" data-duration="-1"'),
    [error(rootAttributeInvalid, 'data-duration')],
  ),
  reported(
    rootAttributeInvalid,
    'an empty data-height and data-width="Infinity"',
    fullDocument([], '', 'data-height="" data-width="Infinity" data-duration="5"'),
    [error(rootAttributeInvalid, 'data-width'), error(rootAttributeInvalid, 'data-height')],
  ),
  absent(
    rootAttributeInvalid,
    'positive dims with spaces and decimals',
    fullDocument([], '', 'data-width=" 1920 " data-height="1080" data-duration="0.5"'),
  ),
  absent(rootAttributeInvalid, 'no dims at all', templateFragment([], '', '')),
  // A root in the document plays on its own and needs a duration (the renderer refuses it with the same code).
  reported(
    durationMissing,
    "no data-duration on a full document's root",
    fullDocument([], '', 'data-width="1920" data-height="1080"'),
    [error(durationMissing, 'data-duration')],
  ),
  reported(durationMissing, 'data-duration="0"', fullDocument([], '', 'data-duration="0"'), [
    error(durationMissing, 'data-duration'),
  ]),
  reported(
    durationMissing,
    'data-duration="soon" on a bare fragment',
    '<div data-composition-id="x" data-duration="soon"></div>',
    [error(durationMissing, 'data-duration')],
  ),
  absent(
    durationMissing,
    'data-duration on <html> only',
    `<!doctype html><html data-duration="3"><body><div data-composition-id="main"></div></body></html>`,
  ),
  // A <template> root is a sub-composition: it may last as long as its host.
  absent(
    durationMissing,
    'a template sub-composition without data-duration',
    templateFragment([], '', 'data-width="640" data-height="360"'),
  ),
  // Without data-duration, a root whose scripts may register its timeline lasts as long as that timeline.
  reported(
    durationFromTimeline,
    'no data-duration, an inline script registers the timeline',
    fullDocument([], REGISTERS_TIMELINE, NO_DURATION),
    [warning(durationFromTimeline, 'data-duration')],
  ),
  reported(
    durationFromTimeline,
    'no data-duration, a script file (which lint cannot read) may register it',
    fullDocument([], '<script src="anim.js"></script>', NO_DURATION),
    [warning(durationFromTimeline, 'data-duration')],
  ),
  absent(
    durationFromTimeline,
    'an explicit data-duration wins over a registered timeline',
    fullDocument([], REGISTERS_TIMELINE),
  ),
  reported(
    durationMissing,
    'no data-duration and an inline script that registers no timeline',
    fullDocument([], '<script>document.title = "t";</script>', NO_DURATION),
    [error(durationMissing, 'data-duration')],
  ),
  reported(
    durationMissing,
    'a malformed data-duration is not replaced by the timeline',
    fullDocument([], REGISTERS_TIMELINE, 'data-duration="soon"'),
    [error(durationMissing, 'data-duration')],
  ),
];

/** 2000 valid declarations, each bound once: the size budget case. */
export function manyDeclarations(count = 2000): string {
  const declarations = Array.from({ length: count }, (_, index) => text(`v${index}`));
  return fullDocument(declarations, shows(...declarations.map((declaration) => declaration.id)));
}

/** Name of the global a hostile case tries to set; a parser that runs scripts would set it. */
export const TRAP = '__fxLintTrap';

const binaryJunk = String.fromCharCode(...Array.from({ length: 4096 }, (_, index) => (index * 7919 + 13) % 65536));

export interface HostileCase {
  readonly name: string;
  readonly html: string;
  readonly findings: readonly string[];
}

/** Malformed and hostile input: lint never throws and returns the same findings in both parsers. */
export const hostileCases: readonly HostileCase[] = [
  { name: 'an empty string', html: '', findings: [] },
  { name: 'only whitespace', html: ' \n\t\r\f ', findings: [] },
  { name: 'a lone "<"', html: '<', findings: [] },
  {
    name: 'a tag cut off inside an attribute',
    html: '<div data-composition-id="main" data-duration="1"><p data-var-text="a',
    findings: [],
  },
  {
    name: 'unclosed tags',
    html: `<div data-composition-id="main" ${D}='${attr([text('a')])}'><p><span data-var-text="a"><b data-var-text="b">`,
    findings: [error(C.bindingUndeclared, 'data-var-text', 'b'), error(durationMissing, 'data-duration')],
  },
  {
    name: 'stray end tags and an unclosed comment',
    html: `</div></html>${fullDocument([text('a')], shows('a'))}<!-- ${shows('ghost')}`,
    findings: [],
  },
  {
    name: '5000 nested divs around a binding',
    html: fullDocument([text('a')], `${'<div>'.repeat(5000)}${shows('a', 'deep')}${'</div>'.repeat(5000)}`),
    findings: [error(C.bindingUndeclared, 'data-var-text', 'deep')],
  },
  {
    name: '5000 unclosed nested templates',
    html: `${'<template><div data-composition-id="t">'.repeat(5000)}${shows('x')}`,
    findings: [error(C.bindingUndeclared, 'data-var-text', 'x')],
  },
  { name: 'binary junk', html: binaryJunk, findings: [] },
  {
    name: 'NUL and lone surrogates in attributes',
    html: fullDocument([text('a\u0000'), text('\uD800')], shows('a\u0000', '\uDC00')),
    findings: [
      // The parser turns a NUL in markup into U+FFFD; the JSON escapes keep NUL and the lone surrogate in the ids.
      error(C.bindingUndeclared, 'data-var-text', 'a\uFFFD'),
      error(C.bindingUndeclared, 'data-var-text', '\uDC00'),
      warning(C.variableUnused, D, 'a\u0000'),
      warning(C.variableUnused, D, '\uD800'),
    ],
  },
  {
    name: 'declarations nested 10000 arrays deep',
    html: fullDocument(`${'['.repeat(10000)}${']'.repeat(10000)}`, ''),
    findings: [error(C.notObject, D, 0)],
  },
  {
    name: 'a color grading nested 10000 objects deep',
    html: fullDocument([], `<div data-color-grading='${'{"a":'.repeat(10000)}"$x"${'}'.repeat(10000)}'></div>`),
    findings: [warning(C.colorGradingReferenceUndeclared, 'data-color-grading', 'x')],
  },
  {
    name: 'host values nested 10000 objects deep',
    html: cardHost(`${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}`),
    findings: [],
  },
  {
    name: 'prototype-named ids',
    html: fullDocument(
      [text('__proto__'), text('constructor')],
      `${shows('__proto__', 'constructor', 'toString')}<div data-composition-id="c" ${D}='[]' ${VALUES}='{"__proto__":{"x":1}}'></div>`,
    ),
    findings: [
      error(C.bindingUndeclared, 'data-var-text', 'toString'),
      warning(C.variableValuesUndeclared, VALUES, '__proto__'),
    ],
  },
  {
    name: 'a 1 MB default',
    html: fullDocument([text('t', { default: 'x'.repeat(1_000_000), maxLength: 10 })], shows('t')),
    findings: [warning(C.defaultTooLong, D, 0, 'default')],
  },
  {
    name: 'bindings inside raw-text elements are text, not elements',
    html: fullDocument(
      [],
      ['iframe', 'noembed', 'noframes', 'xmp', 'textarea', 'title', 'style', 'script']
        .map((tag) => `<${tag}><img data-var-src="ghost"></${tag}>`)
        .join(''),
    ),
    findings: [],
  },
  {
    name: 'bindings inside <noscript> are markup (scripting is off in a DOMParser)',
    html: fullDocument([], `<noscript>${shows('ghost')}</noscript>`),
    findings: [error(C.bindingUndeclared, 'data-var-text', 'ghost')],
  },
  {
    name: 'everything after <plaintext> is text',
    html: fullDocument([], `<plaintext>${shows('ghost')}`),
    findings: [],
  },
  {
    name: 'bindings in comments and CDATA are ignored',
    html: fullDocument([], `<!-- ${shows('a')} --><svg><![CDATA[${shows('b')}]]></svg>`),
    findings: [],
  },
  {
    name: 'table foster-parenting keeps the binding',
    html: fullDocument([text('a')], `<table>${shows('a', 'b')}<tr><td></td></tr></table>`),
    findings: [error(C.bindingUndeclared, 'data-var-text', 'b')],
  },
  {
    name: 'scripts and handlers that would run if executed',
    html: fullDocument(
      [],
      `<script>globalThis.${TRAP} = 'script'</script><img src="x:" onerror="globalThis.${TRAP} = 'img'">` +
        `<svg onload="globalThis.${TRAP} = 'svg'"></svg><iframe srcdoc="<script>parent.${TRAP} = 'iframe'</script>"></iframe>` +
        `<object data="javascript:parent.${TRAP}='object'"></object><meta http-equiv="refresh" content="0;url=javascript:parent.${TRAP}='meta'">`,
    ),
    findings: [],
  },
];

/** Runs lint on a case the same way in both runners. */
export function lintCase(testCase: Pick<LintCase, 'html' | 'sources' | 'files'>): Issue[] {
  const files = testCase.files ? new Set(testCase.files) : undefined;
  const options: LintOptions = {
    ...(testCase.sources ? { readSource: readerOf(testCase.sources) } : {}),
    ...(files ? { hasFile: (path: string) => files.has(path) } : {}),
    ...(files && testCase.sources ? { readFile: readerOf(testCase.sources) } : {}),
  };
  return lintComposition(testCase.html, options);
}

function readerOf(sources: Readonly<Record<string, string | Error>>): (path: string) => string | undefined {
  return (path) => {
    if (!Object.hasOwn(sources, path)) return undefined;
    const found = sources[path];
    if (found instanceof Error) throw found;
    return found;
  };
}

/** Codes missing a `reported` or an `absent` case; must be empty. */
export function uncoveredCodes(): string[] {
  const has = (code: string, expect: LintCase['expect']) =>
    lintCases.some((testCase) => testCase.code === code && testCase.expect === expect);
  return COVERED_CODES.filter((code) => !has(code, 'reported') || !has(code, 'absent'));
}

/** Problems with a finding's shape: stable fields, a lowercase message with no surrounding space. */
export function findingShapeProblems(finding: Issue): string[] {
  const problems: string[] = [];
  if (finding.severity !== 'error' && finding.severity !== 'warning') problems.push(`severity ${finding.severity}`);
  if (!Array.isArray(finding.path)) problems.push('path is not an array');
  if (typeof finding.message !== 'string' || finding.message.trim() === '') problems.push('empty message');
  else if (finding.message !== finding.message.trim() || /^[A-Z]/.test(finding.message))
    problems.push(`message ${JSON.stringify(finding.message.slice(0, 40))}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// extractCompositionMetadata

export interface MetadataExpectation {
  readonly id: string | undefined;
  readonly width: number | undefined;
  readonly height: number | undefined;
  readonly duration: number | undefined;
  /** Ids of the declarations kept, in order. */
  readonly variables: readonly string[];
  readonly issues: readonly string[];
}

export interface MetadataCase {
  readonly name: string;
  readonly html: string;
  readonly expected: MetadataExpectation;
}

/** The metadata of a case in the comparable form of {@link MetadataExpectation}. */
export function metadataSummary(html: string): MetadataExpectation {
  const { id, width, height, duration, variables, issues } = extractCompositionMetadata(html);
  return {
    id,
    width,
    height,
    duration,
    variables: variables.map((variable) => variable.id),
    issues: issues.map(describeFinding),
  };
}

const none = { id: undefined, width: undefined, height: undefined, duration: undefined, variables: [], issues: [] };
const dims = 'data-width="1920" data-height="1080" data-duration="5"';

export const metadataCases: readonly MetadataCase[] = [
  {
    name: 'a full document',
    html: fullDocument([text('title'), number('n')], shows('title')),
    expected: { id: 'main', width: 1920, height: 1080, duration: 5, variables: ['title', 'n'], issues: [] },
  },
  {
    name: 'a bare fragment',
    html: `<div data-composition-id="card" ${dims} ${D}='${attr([text('a')])}'></div>`,
    expected: { id: 'card', width: 1920, height: 1080, duration: 5, variables: ['a'], issues: [] },
  },
  {
    name: 'a template sub-composition',
    html: templateFragment([text('name')], shows('name')),
    expected: { id: 'card', width: 640, height: 360, duration: 2, variables: ['name'], issues: [] },
  },
  {
    name: "declarations on <html> win over the root's",
    html: fullDocument([text('fromHtml')], '', `${dims} ${D}='${attr([text('fromRoot')])}'`),
    expected: { id: 'main', width: 1920, height: 1080, duration: 5, variables: ['fromHtml'], issues: [] },
  },
  {
    name: "broken declarations on <html> still win over the root's",
    html: fullDocument('[', '', `${D}='${attr([text('fromRoot')])}'`),
    expected: { ...none, id: 'main', issues: [error(C.jsonInvalid, D), error(durationMissing, 'data-duration')] },
  },
  {
    name: 'declarations on the root of a full document',
    html: `<!doctype html><html><body><div data-composition-id="main" ${D}='${attr([text('fromRoot')])}'></div></body></html>`,
    expected: { ...none, id: 'main', variables: ['fromRoot'], issues: [error(durationMissing, 'data-duration')] },
  },
  {
    name: 'dims on <html> only',
    html: `<!doctype html><html ${dims}><body><div data-composition-id="main"></div></body></html>`,
    expected: { ...none, id: 'main', width: 1920, height: 1080, duration: 5 },
  },
  {
    name: 'dims on the root win over <html>',
    html: `<html data-width="1" data-height="2" data-duration="3"><body><div data-composition-id="main" data-width="10"></div></body></html>`,
    expected: { ...none, id: 'main', width: 10, height: 2, duration: 3 },
  },
  {
    name: 'upper-case attribute names',
    html: `<DIV DATA-COMPOSITION-ID="Main" DATA-WIDTH="100"></DIV>`,
    expected: { ...none, id: 'Main', width: 100, issues: [error(durationMissing, 'data-duration')] },
  },
  {
    name: 'missing dims',
    html: fullDocument([], '', ''),
    expected: { ...none, id: 'main', issues: [error(durationMissing, 'data-duration')] },
  },
  {
    name: 'missing dims on a template sub-composition',
    html: templateFragment([], '', ''),
    expected: { ...none, id: 'card' },
  },
  {
    name: 'a non-numeric width',
    html: fullDocument([], '', 'data-width="abc" data-height="1080"'),
    expected: {
      ...none,
      id: 'main',
      height: 1080,
      issues: [error(rootAttributeInvalid, 'data-width'), error(durationMissing, 'data-duration')],
    },
  },
  {
    name: 'a negative duration',
    html: fullDocument([], '', 'data-duration="-1"'),
    expected: { ...none, id: 'main', issues: [error(durationMissing, 'data-duration')] },
  },
  {
    name: 'a zero duration',
    html: templateFragment([], '', 'data-duration="0"'),
    expected: { ...none, id: 'card', issues: [error(rootAttributeInvalid, 'data-duration')] },
  },
  {
    name: 'a width with a unit',
    html: fullDocument([], '', 'data-width="1920px" data-duration="1"'),
    expected: { ...none, id: 'main', duration: 1, issues: [error(rootAttributeInvalid, 'data-width')] },
  },
  {
    name: 'an invalid root dim does not fall back to <html>',
    html: `<html data-width="100"><body><div data-composition-id="main" data-width="NaN" data-duration="1"></div></body></html>`,
    expected: { ...none, id: 'main', duration: 1, issues: [error(rootAttributeInvalid, 'data-width')] },
  },
  {
    name: 'declarations with errors are left out and listed',
    html: fullDocument([text('a'), number('b', { default: 'x' }), { id: 'c' }, text('d'), text('a')], ''),
    expected: {
      id: 'main',
      width: 1920,
      height: 1080,
      duration: 5,
      variables: ['a', 'd'],
      issues: [
        error(C.defaultTypeMismatch, D, 1, 'default'),
        error(C.fieldMissing, D, 2, 'type'),
        error(C.fieldMissing, D, 2, 'label'),
        error(C.fieldMissing, D, 2, 'default'),
        error(C.duplicateId, D, 4, 'id'),
      ],
    },
  },
  {
    name: 'entities in declarations are decoded',
    html: `<div data-composition-id="m" ${D}="[{&quot;id&quot;:&quot;t&quot;,&quot;type&quot;:&quot;string&quot;,&quot;label&quot;:&quot;T&quot;,&quot;default&quot;:&quot;a &amp; b&quot;}]" data-duration="2"></div>`,
    expected: { ...none, id: 'm', duration: 2, variables: ['t'] },
  },
  {
    name: 'a nested composition keeps its own declarations out',
    html: fullDocument([text('outer')], inlineNested([text('inner')], '')),
    expected: { id: 'main', width: 1920, height: 1080, duration: 5, variables: ['outer'], issues: [] },
  },
  { name: 'no composition at all', html: '<p>hello</p>', expected: none },
  { name: 'an empty string', html: '', expected: none },
  { name: 'binary junk', html: binaryJunk, expected: none },
];
