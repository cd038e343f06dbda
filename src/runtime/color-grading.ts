import type { VariableValues } from './values.js';

/** The field groups of a `data-color-grading` object that may hold nested references. */
export const COLOR_GRADING_GROUPS = ['preset', 'intensity', 'adjust', 'details', 'effects', 'colorSpace'] as const;

const MAX_DEPTH = 32;
const REFERENCE = /^\$(?:\{([^{}]+)\}|([A-Za-z_][\w-]*))$/;

/** The variable id a whole-field reference (`$name` or `${name}`) names, else `undefined`. */
export function colorGradingReference(field: unknown): string | undefined {
  if (typeof field !== 'string') return undefined;
  const match = REFERENCE.exec(field);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Replaces every field whose whole value is `$name` or `${name}` with that variable's value, at any depth.
 * A reference to a variable that does not exist, and any partial reference inside a longer string, stays as
 * written. The input is not modified.
 *
 * @example
 * resolveColorGrading({ adjust: { exposure: '$exposure' } }, { exposure: 0.5 }); // { adjust: { exposure: 0.5 } }
 */
export function resolveColorGrading<T>(grading: T, values: VariableValues): T {
  const visit = (node: unknown, depth: number): unknown => {
    const id = colorGradingReference(node);
    if (id !== undefined) return Object.hasOwn(values, id) ? values[id] : node;
    // Real gradings are two or three levels deep; hostile nesting is left as written instead of exhausting the stack.
    if (depth >= MAX_DEPTH || typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map((child) => visit(child, depth + 1));
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, visit(child, depth + 1)]));
  };
  return visit(grading, 0) as T;
}

const numberAt = (group: unknown, key: string): number | undefined => {
  const value = typeof group === 'object' && group !== null ? (group as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/**
 * The part of a resolved grading a CSS `filter` can express: exposure (stops), vibrance (saturation offset),
 * blur (px). Returns '' when none applies. Vignette and grain are drawn by the in-frame runtime.
 */
export function colorGradingFilter(grading: Record<string, unknown>): string {
  const filters: string[] = [];
  const exposure = numberAt(grading.adjust, 'exposure');
  const vibrance = numberAt(grading.adjust, 'vibrance');
  const blur = numberAt(grading.effects, 'blur');
  if (exposure !== undefined && exposure !== 0) filters.push(`brightness(${Math.pow(2, exposure).toFixed(4)})`);
  if (vibrance !== undefined && vibrance !== 0) filters.push(`saturate(${Math.max(0, 1 + vibrance).toFixed(4)})`);
  if (blur !== undefined && blur > 0) filters.push(`blur(${blur}px)`);
  return filters.join(' ');
}
