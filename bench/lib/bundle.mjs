// Bundles a source entry (TypeScript and its npm imports) into one in-memory ES module, so a page can import the
// current source without depending on dist/ (which `npm run build` rewrites under other people's feet).
import { build } from 'esbuild';

/**
 * Returns the bundled code of `entry` (a path relative to `root`), minified like a production build. Imports
 * matching `external` (esbuild patterns, e.g. `lit`, `lit/*`) stay imports.
 *
 * @example
 * const code = await bundleModule({ root, entry: 'src/runtime/index.ts' });
 */
export async function bundleModule({ root, entry, external = [] }) {
  const result = await build({
    external,
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
