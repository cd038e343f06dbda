/**
 * Image variable values name files relative to the file that wrote them, but a compiled document has one base
 * (the entry). The compiler makes them absolute while it still knows which file each came from.
 */
import { Attr, VariableType } from './constants.js';
import { isRecord } from './data.js';

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;


function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // left as written: the runtime reports it
  }
}

/** A relative image path resolved against `base`; absolute URLs, any scheme, blanks and non-strings stay as they are. */
function absoluteImage(value: unknown, base: string): unknown {
  if (isRecord(value) && typeof value.url === 'string') return { ...value, url: absoluteImage(value.url, base) };
  if (typeof value !== 'string' || value.trim() === '' || HAS_SCHEME.test(value.trim())) return value;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/**
 * On an inlined instance's host: image defaults of its declarations are resolved against `declaredAt` (the
 * sub-composition's URL), image values of its `data-variable-values` against `valuedAt` (the file naming the host).
 */
export function absolutizeImageValues(host: Element, declaredAt: string, valuedAt: string): void {
  const declarations = parseJson(host.getAttribute(Attr.compositionVariables));
  if (!Array.isArray(declarations)) return;
  const imageIds = new Set<string>();
  let changed = false;
  const rewritten = declarations.map((declaration: unknown) => {
    if (!isRecord(declaration) || declaration.type !== VariableType.image) return declaration;
    if (typeof declaration.id === 'string') imageIds.add(declaration.id);
    if (!('default' in declaration)) return declaration;
    const value = absoluteImage(declaration.default, declaredAt);
    changed ||= value !== declaration.default;
    return { ...declaration, default: value };
  });
  if (changed) host.setAttribute(Attr.compositionVariables, JSON.stringify(rewritten));

  const values = parseJson(host.getAttribute(Attr.variableValues));
  if (!isRecord(values) || imageIds.size === 0) return;
  let valuesChanged = false;
  const resolved = Object.fromEntries(
    Object.entries(values).map(([id, value]) => {
      const next = imageIds.has(id) ? absoluteImage(value, valuedAt) : value;
      valuesChanged ||= next !== value;
      return [id, next];
    }),
  );
  if (valuesChanged) host.setAttribute(Attr.variableValues, JSON.stringify(resolved));
}
