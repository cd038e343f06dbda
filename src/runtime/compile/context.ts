/** The compile's shared state and the helpers its steps (compile.ts, compile/assets.ts, compile/instances.ts) use. */
import { Attr } from '../constants.js';
import { CssNameRegister } from './css-names.js';
import { CompileIssueCode } from './codes.js';
import type { Loader } from './loader.js';
import { FxError } from '../errors.js';
import { issue, type Issue } from '../issues.js';

/** What one compile's steps share: the loader, the document, the issues so far, the limits reached. */
export interface Context extends Loader {
  readonly inlineFonts: boolean;
  /** The HyperFrames-named globals are on (see `HYPERFRAMES_GLOBALS`): instance scripts get scoped ones too. */
  aliases: boolean;
  readonly issues: Issue[];
  readonly doc: Document;
  instances: number;
  /** Characters the compiled document has so far (an estimate from the sources inlined). */
  documentBytes: number;
  /** Limit codes already reported: the hosts after the first past a limit are left empty without another issue. */
  readonly reported: Set<string>;
  /** The document-wide CSS names defined so far (@keyframes, @property, @font-face), first come first kept. */
  readonly cssNames: CssNameRegister;
}

/** Where a project's files live: what the compiler may fetch an image from (never `data:`, `blob:` or others). */
export const HIERARCHICAL_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'file:']);
/** Script types that run as classic scripts: the ones a function can wrap (modules have their own scope). */
export const CLASSIC_SCRIPT_TYPES: ReadonlySet<string> = new Set(['', 'text/javascript', 'application/javascript']);

/** Refusals of a font or top-level stylesheet: the URL is left for the frame to load itself, with a warning. */
export const LEFT_FOR_THE_FRAME: ReadonlySet<string> = new Set([
  CompileIssueCode.urlOutsideScope,
  CompileIssueCode.typeRefused,
  CompileIssueCode.filesTooMany,
]);
/** Limits past which every later host fails the same way: reported once. */
export const REPORTED_ONCE: ReadonlySet<string> = new Set([
  CompileIssueCode.subTooMany,
  CompileIssueCode.compiledTooLarge,
  CompileIssueCode.filesTooMany,
]);

/**
 * Text we write into a `<script>` or `<style>` is serialised raw, so `</script` or `</style` inside it would end
 * the element early and turn the rest into markup. `<\/` means the same in JS strings, regexes and comments and in
 * CSS strings and comments; `<!--` is escaped for the script parser's comment states.
 */
export function inertInRawText(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`<(/${element})`, 'gi'), '<\\$1').replace(/<!--/g, '<\\!--');
}

/** A refused font, stylesheet or image, reported once as a warning: the frame loads it itself. */
export function reportLeftForTheFrame(ctx: Context, error: FxError, path: readonly string[]): void {
  if (REPORTED_ONCE.has(error.code) && ctx.reported.has(error.code)) return;
  ctx.reported.add(error.code);
  ctx.issues.push(issue(error.code, path, `${error.message}; left for the frame to load itself`, 'warning'));
}

/** `<name attributes…>text</name>`, made in `doc`. */
export function createElement(doc: Document, name: string, attributes: Record<string, string>, text?: string): Element {
  const element = doc.createElement(name);
  for (const [attribute, value] of Object.entries(attributes)) element.setAttribute(attribute, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A fragment entry whose root lives in a `<template>`: move the template's content into the body. */
export function liftTemplateRoot(doc: Document): void {
  if (doc.body.querySelector(`[${Attr.compositionId}]`)) return;
  const template = [...doc.querySelectorAll('template')].find((candidate) =>
    candidate.content.querySelector(`[${Attr.compositionId}]`),
  );
  if (template) template.replaceWith(doc.importNode(template.content, true));
}
