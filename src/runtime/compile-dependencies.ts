/**
 * The files a compiled composition names but the compiler did not inline: images, media, posters, icons, CSS
 * `url()`s other than inlined fonts, and the files of image and font variables (declared defaults and host
 * values). Together with what the compiler read, that is the composition's dependency set — what a project zip of
 * it must hold.
 */
import { Attr, VariableType } from './constants.js';
import { cssUrlTokens } from './css-scan.js';
import { declarationList } from './declaration-map.js';
import { isRecord, parseUrl } from './data.js';

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

/**
 * Absolute URLs of the files `doc` names, resolved against `base` (the document's own base), without fragments,
 * sorted and without duplicates, `data:` and the like left out.
 */
export function referencedUrls(doc: Document, base: string): string[] {
  const found = new Set<string>();
  const add = (value: string | null | undefined) => {
    const raw = value?.trim();
    if (!raw || raw.startsWith('#') || NOT_A_FILE.test(raw)) return;
    const url = parseUrl(raw, base);
    if (!url || !(url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'file:')) return;
    url.hash = '';
    found.add(url.href);
  };
  for (const [selector, attribute] of URL_ATTRIBUTES)
    for (const element of doc.querySelectorAll(selector)) add(element.getAttribute(attribute));
  for (const element of doc.querySelectorAll('image, use, feImage')) add(element.getAttributeNS(XLINK, 'href'));
  for (const element of doc.querySelectorAll(SRCSET)) {
    for (const candidate of element.getAttribute('srcset')!.split(',')) add(candidate.trim().split(/\s+/)[0]);
  }
  for (const style of doc.querySelectorAll('style'))
    for (const { url } of cssUrlTokens(style.textContent ?? '')) add(url);
  for (const element of doc.querySelectorAll('[style]'))
    for (const { url } of cssUrlTokens(element.getAttribute('style')!)) add(url);
  for (const element of doc.querySelectorAll(`[${Attr.compositionVariables}]`))
    for (const value of variableFiles(element)) add(value);
  return [...found].sort();
}

/** The files named by the image and font variables `element` declares: their defaults and its values for them. */
function variableFiles(element: Element): string[] {
  const declarations = declarationList(parseJson(element.getAttribute(Attr.compositionVariables)));
  const values = parseJson(element.getAttribute(Attr.variableValues));
  const files: string[] = [];
  for (const declaration of declarations) {
    if (!isRecord(declaration) || (declaration.type !== VariableType.image && declaration.type !== VariableType.font))
      continue;
    files.push(...variableValueFiles(declaration.type, declaration.default));
    if (isRecord(values) && typeof declaration.id === 'string')
      files.push(...variableValueFiles(declaration.type, values[declaration.id]));
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
