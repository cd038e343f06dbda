import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RenderErrorCode, renderError } from './errors.js';

/** The built bundles the renderer serves: the compiler (as `window.fx`) and the in-frame runtime. */
export const BUNDLE_FILES = { compiler: 'fx.iife.js', runtime: 'fx-runtime.js' } as const;

/**
 * The folder holding the built bundles: `FX_DIST_DIR` if set, else the package's `dist/` (found from this module,
 * whether it runs from `src/render/` or from a build next to the bundles).
 */
export function bundleDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = process.env.FX_DIST_DIR
    ? [resolve(process.env.FX_DIST_DIR)]
    : [resolve(here, '../../dist'), resolve(here, '../dist'), here];
  const found = candidates.find((dir) => Object.values(BUNDLE_FILES).every((file) => existsSync(join(dir, file))));
  if (!found) {
    throw renderError(
      RenderErrorCode.bundleMissing,
      `"${BUNDLE_FILES.compiler}" and "${BUNDLE_FILES.runtime}" were not found in ${candidates.map((dir) => `"${dir}"`).join(' or ')}; run "npm run build" first`,
    );
  }
  return found;
}
