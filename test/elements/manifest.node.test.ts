// custom-elements.json is generated (`npm run manifest`) and committed; this keeps it true to the element and to
// the package users install (its paths name packed files; needs dist/ built, as `npm test` does before this).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FxCompositionAttribute, FxCompositionEvent } from '../../src/elements/internal/constants.js';
import { FxVariablesPanelAttribute, FxVariablesPanelEvent } from '../../src/elements/panel/constants.js';
import { FxRenderButtonAttribute, FxRenderButtonEvent } from '../../src/elements/render-button/constants.js';

interface Reference {
  name: string;
  module?: string;
}

interface Declaration {
  name: string;
  tagName?: string;
  attributes?: { name: string }[];
  events?: { name: string }[];
  members?: { name: string; privacy?: string; inheritedFrom?: Reference }[];
}

interface Module {
  path: string;
  declarations?: Declaration[];
  exports?: { kind: string; name: string; declaration: Reference }[];
}

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('custom-elements.json', root), 'utf8')) as { modules: Module[] };
const element = manifest.modules
  .flatMap((module) => module.declarations ?? [])
  .find((declaration) => declaration.tagName === 'fx-composition');

test('custom-elements.json describes <fx-composition>', () => {
  assert.ok(element, 'no fx-composition in custom-elements.json; run npm run manifest');
});

test('custom-elements.json lists every attribute and event of the constants tables', () => {
  assert.deepEqual(
    new Set(element?.attributes?.map((attribute) => attribute.name)),
    new Set(Object.values(FxCompositionAttribute)),
  );
  assert.deepEqual(new Set(element?.events?.map((event) => event.name)), new Set(Object.values(FxCompositionEvent)));
});

test('custom-elements.json describes <fx-variables-panel> with every attribute and event of its constants tables', () => {
  const panel = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .find((declaration) => declaration.tagName === 'fx-variables-panel');
  assert.ok(panel, 'no fx-variables-panel in custom-elements.json; run npm run manifest');
  assert.deepEqual(
    new Set(panel.attributes?.map((attribute) => attribute.name)),
    new Set(Object.values(FxVariablesPanelAttribute)),
  );
  assert.deepEqual(new Set(panel.events?.map((event) => event.name)), new Set(Object.values(FxVariablesPanelEvent)));
});

test('custom-elements.json describes <fx-render-button> with every attribute of its constants table, and its events', () => {
  const button = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .find((declaration) => declaration.tagName === 'fx-render-button');
  assert.ok(button, 'no fx-render-button in custom-elements.json; run npm run manifest');
  assert.deepEqual(
    new Set(button.attributes?.map((attribute) => attribute.name)),
    new Set(Object.values(FxRenderButtonAttribute)),
  );
  // (The analyzer also lists the `#emit` helper's parameter as an event named "name".)
  const events = new Set(button.events?.map((event) => event.name));
  for (const event of Object.values(FxRenderButtonEvent)) assert.ok(events.has(event), event);
});

test('custom-elements.json holds the public API only: no private members', () => {
  const hidden =
    element?.members?.filter(
      (member) => member.name.startsWith('#') || member.privacy === 'private' || member.privacy === 'protected',
    ) ?? [];
  assert.deepEqual(
    hidden.map((member) => member.name),
    [],
  );
  assert.ok(
    element?.members?.some((member) => member.name === 'seek'),
    'public methods stay listed',
  );
});

/** The files `npm pack` puts in the package. */
function packedFiles(): Set<string> {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  const [{ files }] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
  return new Set(files.map((file) => file.path));
}

test('custom-elements.json names files the package ships, not src/ (build dist/ first)', () => {
  const files = packedFiles();
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { customElements: string };
  assert.ok(files.has(pkg.customElements), `package.json's customElements (${pkg.customElements}) is not packed`);
  const paths = manifest.modules.flatMap((module) => [
    module.path,
    ...(module.exports ?? []).map((entry) => entry.declaration.module),
    ...(module.declarations ?? []).flatMap((declaration) =>
      (declaration.members ?? []).map((member) => member.inheritedFrom?.module),
    ),
  ]);
  const missing = [...new Set(paths.filter((path): path is string => path !== undefined))].filter(
    (path) => !files.has(path),
  );
  assert.deepEqual(missing, [], 'paths in custom-elements.json missing from npm pack');
});

test('custom-elements.json defines each element: a custom-element-definition export of its tag and class', () => {
  for (const module of manifest.modules) {
    for (const declaration of module.declarations ?? []) {
      if (!declaration.tagName) continue;
      const definition = module.exports?.find(
        (entry) => entry.kind === 'custom-element-definition' && entry.name === declaration.tagName,
      );
      assert.deepEqual(
        definition?.declaration,
        { name: declaration.name, module: module.path },
        `no definition of <${declaration.tagName}>`,
      );
    }
  }
  assert.ok(
    manifest.modules.some((module) =>
      module.exports?.some((entry) => entry.kind === 'custom-element-definition' && entry.name === 'fx-composition'),
    ),
  );
});
