import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where a page of docs/ is on this machine: in the installed package (scripts/build-server.mjs copies the pages
 * beside the bundle, `dist/docs/`), else in the repository the sources run from.
 */
export function docsPath(page: string): string {
  const installed = fileURLToPath(new URL(`./docs/${page}`, import.meta.url));
  return existsSync(installed) ? installed : fileURLToPath(new URL(`../../docs/${page}`, import.meta.url));
}
