import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RenderErrorCode, renderError } from './errors.js';

/** The built bundles the renderer serves: the compiler (as `window.fx`) and the in-frame runtime. */
export const BUNDLE_FILES = { compiler: 'fx.iife.js', runtime: 'fx-runtime.js' } as const;

/**
 * The folder holding the built bundles: `FX_DIST_DIR` if set; else the folder of this module, where the installed
 * `fx-sdk-server` has them (scripts/build-server.mjs bundles this module into `dist/` and copies them beside it);
 * else the repository's `dist/`, for this module run from `src/render/`.
 */
export function bundleDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  moduleUrl: string = import.meta.url,
): string {
  const here = dirname(fileURLToPath(moduleUrl));
  const candidates = env.FX_DIST_DIR ? [resolve(env.FX_DIST_DIR)] : [here, resolve(here, '../../dist')];
  const found = candidates.find((dir) => Object.values(BUNDLE_FILES).every((file) => existsSync(join(dir, file))));
  if (!found) {
    throw renderError(
      RenderErrorCode.bundleMissing,
      `"${BUNDLE_FILES.compiler}" and "${BUNDLE_FILES.runtime}" were not found in ${candidates.map((dir) => `"${dir}"`).join(' or ')}; run "npm run build" first`,
    );
  }
  return found;
}
