/**
 * Image variable values name files relative to the file that wrote them, but a compiled document has one base
 * (the entry). The compiler makes them absolute while it still knows which file each came from.
 */
import { Attr, VariableType } from '../constants.js';
import { isDeclarationMap } from '../declaration-map.js';
import { isRecord, parseUrl } from '../data.js';

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;

/** A relative image path resolved against `base`; absolute URLs, any scheme, blanks and non-strings stay as they are. */
function absoluteImage(value: unknown, base: string): unknown {
  if (isRecord(value) && typeof value.url === 'string') return { ...value, url: absoluteImage(value.url, base) };
  if (typeof value !== 'string' || value.trim() === '' || HAS_SCHEME.test(value.trim())) return value;
  return parseUrl(value, base)?.href ?? value;
}

/**
 * Rewrites the JSON of attribute `name` with `rewrite`. Written back only when that changed it, so an attribute
 * stays as authored otherwise; malformed JSON stays too (the runtime reports it).
 */
function rewriteJsonAttribute(element: Element, name: string, rewrite: (value: unknown) => unknown): void {
  const text = element.getAttribute(name);
  let value: unknown;
  try {
    value = JSON.parse(text ?? '');
  } catch {
    return;
  }
  const rewritten = JSON.stringify(rewrite(value));
  if (rewritten !== JSON.stringify(value)) element.setAttribute(name, rewritten);
}

/**
 * On an inlined instance's host: image defaults of its declarations are resolved against `declaredAt` (the
 * sub-composition's URL), image values of its `data-variable-values` against `valuedAt` (the file naming the host).
 */
export function absolutizeImageValues(host: Element, declaredAt: string, valuedAt: string): void {
  const imageIds = new Set<string>();
  // One declaration, array form or object form (where its key is the id unless it names one).
  const absolutize = (declaration: unknown, key?: string) => {
    if (!isRecord(declaration) || declaration.type !== VariableType.image) return declaration;
    const id = typeof declaration.id === 'string' ? declaration.id : key;
    if (id !== undefined) imageIds.add(id);
    return 'default' in declaration
      ? { ...declaration, default: absoluteImage(declaration.default, declaredAt) }
      : declaration;
  };
  rewriteJsonAttribute(host, Attr.compositionVariables, (declarations) => {
    if (Array.isArray(declarations)) return declarations.map((declaration: unknown) => absolutize(declaration));
    if (!isDeclarationMap(declarations)) return declarations;
    return Object.fromEntries(Object.entries(declarations).map(([key, entry]) => [key, absolutize(entry, key)]));
  });
  if (imageIds.size === 0) return;
  rewriteJsonAttribute(host, Attr.variableValues, (values) => {
    if (!isRecord(values)) return values;
    return Object.fromEntries(
      Object.entries(values).map(([id, value]) => [id, imageIds.has(id) ? absoluteImage(value, valuedAt) : value]),
    );
  });
}
