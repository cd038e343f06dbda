import * as z from 'zod/mini';

/**
 * Builds a zod/mini schema with zod's JIT off (a strict CSP refuses `new Function`). Marked free of side effects
 * so bundlers drop every schema nobody uses, the config call included.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineSchema<Schema>(build: () => Schema): Schema {
  z.config({ jitless: true });
  return build();
}
