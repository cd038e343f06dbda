// Layering (DESIGN.md): the client speaks the wire, never the service; the wire imports nothing but zod/mini; both
// run in browsers, so no Node built-ins (Node adapters are the files named `*.node.ts`).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** Every import specifier of every module under `folder`, with the module it is in. */
function importsUnder(folder: string): { file: string; specifier: string; target: string }[] {
  const files = readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => {
      const specifier = (match[1] ?? match[2] ?? match[3])!;
      const target = specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)) : specifier;
      return { file: relative(ROOT, file), specifier, target };
    }),
  );
}

test('the scan finds the imports (it would pass vacuously otherwise)', () => {
  const client = importsUnder('src/client');
  assert.ok(client.some(({ target }) => target.startsWith('src/wire/')));
  assert.ok(client.some(({ target }) => target === 'zod/mini' || target.startsWith('src/runtime/')));
  assert.ok(importsUnder('src/wire').some(({ target }) => target === 'zod/mini'));
});

test('src/client never imports src/service, src/render or src/cli', () => {
  const offending = importsUnder('src/client').filter(({ target }) => /^src\/(service|render|cli)\//.test(target));
  assert.deepEqual(offending, []);
});

test('src/wire imports nothing outside itself but zod/mini', () => {
  const offending = importsUnder('src/wire').filter(
    ({ target }) => !target.startsWith('src/wire/') && target !== 'zod/mini',
  );
  assert.deepEqual(offending, []);
});

test('src/client and src/wire use no Node built-ins outside *.node.ts adapters', () => {
  const offending = [...importsUnder('src/client'), ...importsUnder('src/wire')].filter(
    ({ file, target }) =>
      !file.endsWith('.node.ts') &&
      (target.startsWith('node:') ||
        /^(fs|path|os|crypto|http|https|net|stream|url|zlib|child_process)(\/|$)/.test(target)),
  );
  assert.deepEqual(offending, []);
});
