// The zod declaration schemas in Node (CLI, service, editors' tooling): same agreement with the lean parser as in
// the browser, the committed JSON Schema is what the script generates, and the size-budgeted bundles stay zod-free.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build, type PluginBuild } from 'esbuild';
import fc from 'fast-check';
import { parseVariableDeclarations } from '../../src/runtime/declarations.js';
import {
  declarationListSchema,
  variableDeclarationSchema,
  declarationsJsonSchema,
} from '../../src/runtime/declaration-schemas.js';
import {
  agreementCases,
  checkDeclarationAgreement,
  checkListAgreement,
  declarationLike,
  declarationListLike,
  declarationMapLike,
} from './declaration-agreement.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the parser and the zod schema accept the same declarations', () => {
  fc.assert(fc.property(declarationLike, checkDeclarationAgreement), { numRuns: 3000 });
});

test('the parser and the zod list schema accept the same lists', () => {
  fc.assert(fc.property(declarationListLike, checkListAgreement), { numRuns: 1000 });
});

test('the parser and the zod list schema accept the same object-form declarations', () => {
  fc.assert(fc.property(declarationMapLike, checkListAgreement), { numRuns: 1000 });
});

test('the object form reads as the array form: keys as ids and labels; an own id kept; bad entries refused alike', () => {
  const map = {
    TXT_MAIN: { type: 'string', default: 'BILD' },
    sub: { id: 'other', type: 'string', label: 'Sub', default: 'x', role: 'content' },
  };
  assert.deepEqual(parseVariableDeclarations(JSON.stringify(map)), {
    declarations: [
      { type: 'string', default: 'BILD', id: 'TXT_MAIN', label: 'TXT_MAIN' },
      { id: 'other', type: 'string', label: 'Sub', default: 'x', role: 'content' },
    ],
    issues: [],
  });
  assert.equal(declarationListSchema.safeParse(map).success, true);
  const bad = { a: { type: 'string' }, b: { type: 'color', default: 'red' } };
  assert.deepEqual(
    parseVariableDeclarations(bad).issues.map((found) => [found.code, found.path]),
    [
      ['declaration_field_missing', ['a', 'default']],
      ['default_type_mismatch', ['b', 'default']],
    ],
  );
  assert.deepEqual(
    declarationListSchema.safeParse(bad).error?.issues.map((found) => found.path),
    [
      ['a', 'default'],
      ['b', 'default'],
    ],
  );
  assert.deepEqual(
    parseVariableDeclarations({ a: 42 }).issues.map((found) => found.code),
    ['declaration_not_array'],
  );
  assert.equal(declarationListSchema.safeParse({ a: 42 }).success, false);
});

for (const [name, declaration, accepted] of agreementCases) {
  test(`both ${accepted ? 'accept' : 'reject'} ${name}`, () => {
    assert.equal(parseVariableDeclarations([declaration]).declarations.length === 1, accepted, 'parser');
    assert.equal(variableDeclarationSchema.safeParse(declaration).success, accepted, 'zod');
  });
}

test('the committed JSON Schema is the one the zod schemas generate now', () => {
  const committed = JSON.parse(
    readFileSync(new URL('schemas/composition-variables.schema.json', `file://${root}`), 'utf8'),
  );
  assert.deepEqual(committed, declarationsJsonSchema());
});

test('the schema script in --check mode agrees byte for byte', () => {
  assert.doesNotThrow(() =>
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/declarations-schema.mjs', '--check'], {
      cwd: root,
      stdio: 'pipe',
    }),
  );
});

// The element and the in-frame runtime have a size budget zod alone would eat half of.
for (const entry of ['src/elements/composition/define.ts', 'src/runtime/frame/index.ts']) {
  test(`bundling ${entry} pulls in neither zod nor the zod schemas`, async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.length > 1, 'the bundle has inputs');
    assert.deepEqual(
      inputs.filter((input) => input.includes('node_modules/zod/') || input.endsWith('declaration-schemas.ts')),
      [],
    );
  });
}

// The SDK's ES build is one file with zod external, so module-level tree-shaking cannot help: the schemas must be
// droppable statement by statement (defineSchema is marked free of side effects). zod/mini itself now comes with
// `import 'fx-sdk'` (the /v3 client behind <fx-render-button> checks answers with it); the player alone has none
// (the test above), and the declaration schemas stay out until used.
test('a user of the one-file SDK bundle who never touches the declaration schemas gets none of them', async () => {
  const sdk = await build({
    absWorkingDir: root,
    entryPoints: ['src/index.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    packages: 'external',
  });
  const sdkFile = {
    name: 'sdk-file',
    setup(plugin: PluginBuild) {
      plugin.onResolve({ filter: /^fx-sdk$/ }, () => ({ path: 'fx-sdk', namespace: 'sdk' }));
      plugin.onLoad({ filter: /.*/, namespace: 'sdk' }, () => ({
        contents: sdk.outputFiles[0]!.text,
        resolveDir: root,
      }));
    },
  };
  const bundleOf = async (contents: string) => {
    const user = await build({
      stdin: { contents, resolveDir: root },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      plugins: [sdkFile],
    });
    return user.outputFiles[0]!.text;
  };
  // A message only the declaration schemas carry.
  const SCHEMA_MARKER = 'expected a whole number';
  assert.ok(
    !(
      await bundleOf(
        "import { parseVariableDeclarations } from 'fx-sdk'; console.log(parseVariableDeclarations('[]'));",
      )
    ).includes(SCHEMA_MARKER),
  );
  assert.ok(
    (
      await bundleOf(
        "import { declarationListSchema } from 'fx-sdk'; console.log(declarationListSchema.safeParse([]));",
      )
    ).includes(SCHEMA_MARKER),
  );
});
