/**
 * The files a compiled composition names but the compiler did not inline: images, media, posters, icons, CSS
 * `url()`s other than inlined fonts, and the files of image and font variables (declared defaults and host
 * values). Together with what the compiler read, that is the composition's dependency set — what a project zip of
 * it must hold.
 */
import { Attr, VariableType } from '../constants.js';
import { cssUrlTokens } from './css-scan.js';
import { declarationList } from '../declaration-map.js';
import { isRecord, parseUrl } from '../data.js';

/** The `<link>`s that load a stylesheet (the compile inlines them; missing-files.ts checks their `url()`s too). */
export const STYLESHEET_LINKS = 'link[rel~="stylesheet" i][href]';

/** Attributes naming a file to load, by element (`*`: any element). Links to navigate to (`<a href>`) are not files. */
const URL_ATTRIBUTES: readonly [selector: string, attribute: string][] = [
  [
    'img[src], video[src], audio[src], source[src], track[src], iframe[src], embed[src], script[src], input[src]',
    'src',
  ],
  ['video[poster]', 'poster'],
  ['object[data]', 'data'],
  ['link[href]', 'href'],
  ['image[href], use[href], feImage[href]', 'href'],
];
const SRCSET = 'img[srcset], source[srcset]';
const XLINK = 'http://www.w3.org/1999/xlink';
/** Schemes that name no file to fetch. */
const NOT_A_FILE = /^(data|blob|javascript|about|mailto|tel):/i;

/** One place a document names a file: the file's absolute URL (no fragment), the value as written, and where. */
export interface FileReference {
  readonly url: string;
  readonly value: string;
  /** Where the value stands, as a user would look for it: `<img src>`, `<style> url()`, `variable "logo" default`. */
  readonly where: string;
  /** The element it stands on (for a variable, the element that declares it). */
  readonly element: Element;
  /** A sub-composition host's `data-composition-src`. */
  readonly sub: boolean;
}

/**
 * Every place `doc` names a file, resolved against `base` (the document's own base), in document order; `data:`
 * and the like left out. Sub-composition hosts (`data-composition-src`) are included: the compiler reads those
 * itself, lint checks them like any other file.
 */
export function fileReferences(doc: Document, base: string): FileReference[] {
  const found: FileReference[] = [];
  const add = (element: Element, where: string, value: string | null | undefined, sub = false) => {
    const raw = value?.trim();
    if (!raw || raw.startsWith('#') || NOT_A_FILE.test(raw)) return;
    const url = parseUrl(raw, base);
    if (!url || !(url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'file:')) return;
    url.hash = '';
    found.push({ url: url.href, value: raw, where, element, sub });
  };
  const tag = (element: Element, attribute: string) => `<${element.localName} ${attribute}>`;
  for (const [selector, attribute] of URL_ATTRIBUTES)
    for (const element of doc.querySelectorAll(selector))
      add(element, tag(element, attribute), element.getAttribute(attribute));
  for (const element of doc.querySelectorAll('image, use, feImage'))
    add(element, tag(element, 'xlink:href'), element.getAttributeNS(XLINK, 'href'));
  for (const element of doc.querySelectorAll(SRCSET)) {
    for (const candidate of element.getAttribute('srcset')!.split(','))
      add(element, tag(element, 'srcset'), candidate.trim().split(/\s+/)[0]);
  }
  for (const style of doc.querySelectorAll('style'))
    for (const { url } of cssUrlTokens(style.textContent ?? '')) add(style, '<style> url()', url);
  for (const element of doc.querySelectorAll('[style]'))
    for (const { url } of cssUrlTokens(element.getAttribute('style')!))
      add(element, `${tag(element, 'style')} url()`, url);
  for (const element of doc.querySelectorAll(`[${Attr.compositionVariables}]`))
    for (const { where, value } of variableFiles(element)) add(element, where, value);
  for (const element of doc.querySelectorAll(`[${Attr.compositionSrc}]`))
    add(element, tag(element, Attr.compositionSrc), element.getAttribute(Attr.compositionSrc), true);
  return found;
}

/**
 * Absolute URLs of the files `doc` names, resolved against `base` (the document's own base), without fragments,
 * sorted and without duplicates, `data:` and the like left out. Sub-compositions are not among them: the compile
 * counts the ones it read.
 */
export function referencedUrls(doc: Document, base: string): string[] {
  const urls = fileReferences(doc, base)
    .filter((reference) => !reference.sub)
    .map((reference) => reference.url);
  return [...new Set(urls)].sort();
}

/** The files named by the image and font variables `element` declares: their defaults and its values for them. */
function variableFiles(element: Element): { where: string; value: string }[] {
  const declarations = declarationList(parseJson(element.getAttribute(Attr.compositionVariables)));
  const values = parseJson(element.getAttribute(Attr.variableValues));
  const files: { where: string; value: string }[] = [];
  for (const declaration of declarations) {
    if (!isRecord(declaration) || (declaration.type !== VariableType.image && declaration.type !== VariableType.font))
      continue;
    const name = `${declaration.type} variable ${JSON.stringify(declaration.id)}`;
    for (const value of variableValueFiles(declaration.type, declaration.default))
      files.push({ where: `${name} default`, value });
    if (isRecord(values) && typeof declaration.id === 'string') {
      for (const value of variableValueFiles(declaration.type, values[declaration.id]))
        files.push({ where: `${name} in "${Attr.variableValues}"`, value });
    }
  }
  return files;
}

/** The file an image value (`"url"` or `{ url }`) or a font value (`{ name, source }`) names, if any. */
export function variableValueFiles(type: string, value: unknown): string[] {
  if (type === VariableType.image) {
    if (typeof value === 'string') return [value];
    if (isRecord(value) && typeof value.url === 'string') return [value.url];
  }
  if (type === VariableType.font && isRecord(value) && typeof value.source === 'string') return [value.source];
  return [];
}

function parseJson(text: string | null): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}
