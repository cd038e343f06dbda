// `fx-sdk/react` in a React Server Component: the `react-server` export condition (Next.js resolves a server
// component's imports with it) gives a module that fails the build naming the fix, with the components' names so a
// bundler's static check of a named import does not fail first with a message that says nothing of the fix. Next's
// own build of such a page was checked by hand (16.4): "Failed to collect page data … put 'use client' at the top".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const importUnder = (condition: string | undefined) =>
  execFileSync(
    process.execPath,
    [
      ...(condition ? [`--conditions=${condition}`] : []),
      '--input-type=module',
      '-e',
      "import('fx-sdk/react').then((m) => console.log(Object.keys(m).sort().join()), (e) => console.log('threw: ' + e.message))",
    ],
    { encoding: 'utf8' },
  ).trim();

test('under react-server, importing fx-sdk/react fails, saying to add use client', () => {
  assert.match(
    importUnder('react-server'),
    /^threw: fx-sdk\/react was imported from a React Server Component.*'use client'/,
  );
});

test('the react-server module exports the same names as the client one', () => {
  const server = readFileSync(new URL('../../dist/fx-react.server.js', import.meta.url), 'utf8');
  const exported = /export \{([^}]*)\}/
    .exec(server)?.[1]
    ?.split(',')
    .map((part) => part.split(' as ')[1]!.trim());
  assert.deepEqual(exported?.sort(), ['FxComposition', 'FxRenderButton', 'FxVariablesPanel']);
});

test('the client module starts with the use client directive', () => {
  const client = readFileSync(new URL('../../dist/fx-react.js', import.meta.url), 'utf8');
  assert.match(client, /^'use client';\n/);
});
