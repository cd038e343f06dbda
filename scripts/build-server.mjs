#!/usr/bin/env node
// Emits packages/server/dist/: the Node commands bundled for plain `node` (fx.js, fx-service.js,
// fx-service-admin.js and their shared chunks, next to each other), the browser bundles the renderer serves
// (fx.iife.js, fx-runtime.js, copied from dist/, so run scripts/build.mjs first), `fx init`'s starter project and the
// docs pages the commands' help names.
// npm dependencies stay imports (they are fx-sdk-server's dependencies; better-sqlite3 is native), as do Node's own.
import { build } from 'esbuild';
import { cpSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}packages/server/dist`;

/** Bin name → source entry. Each bin in packages/server/bin imports `dist/<name>.js`. */
const SERVER_ENTRIES = {
  fx: 'src/cli/fx.ts',
  'fx-service': 'src/service/main.ts',
  'fx-service-admin': 'src/service/admin.ts',
};
/** What the renderer and `fx preview` serve (src/render/bundles.ts finds them next to the chunk that asks). */
// fx-export-encoder.js: what fx.iife.js loads on its first export (src/export/encoder-file.ts).
const BROWSER_BUNDLES = ['fx.iife.js', 'fx-export-encoder.js', 'fx-runtime.js'];

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: SERVER_ENTRIES,
  outdir: out,
  // Chunks beside the entries: modules find their files from `import.meta.url` (`./starter/`, the bundles).
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  logLevel: 'warning',
});
for (const file of BROWSER_BUNDLES) copyFileSync(`${root}dist/${file}`, `${out}/${file}`);
cpSync(`${root}src/cli/commands/starter`, `${out}/starter`, { recursive: true });
mkdirSync(`${out}/docs`, { recursive: true });
// The pages `fx service --help` points to (src/cli/docs-path.ts finds them beside the chunk that asks).
for (const page of ['service.md', 'deploy.md', 'cli.md', 'errors.md'])
  copyFileSync(`${root}docs/${page}`, `${out}/docs/${page}`);
