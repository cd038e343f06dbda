/**
 * Lit's development build (what Vite dev and webpack's development mode resolve for an app's dependencies) prints
 * "Lit is in dev mode" once, from a microtask queued while it loads. That notice is about fx's own dependency, not
 * the app, so fx marks it as already given; lit's other development warnings still show.
 */
const lit = globalThis as { litIssuedWarnings?: Set<string | undefined> };
(lit.litIssuedWarnings ??= new Set()).add('dev-mode');

export {};
