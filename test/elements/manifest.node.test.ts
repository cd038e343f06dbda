// custom-elements.json is generated (`npm run manifest`) and committed; this keeps it true to the element.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FxAttribute, FxEvent } from '../../src/elements/constants.js';

interface Declaration {
  tagName?: string;
  attributes?: { name: string }[];
  events?: { name: string }[];
  members?: { name: string; privacy?: string }[];
}

const manifest = JSON.parse(readFileSync(new URL('../../custom-elements.json', import.meta.url), 'utf8')) as { modules: { declarations?: Declaration[] }[] };
const element = manifest.modules.flatMap((module) => module.declarations ?? []).find((declaration) => declaration.tagName === 'fx-composition');

test('custom-elements.json describes <fx-composition>', () => {
  assert.ok(element, 'no fx-composition in custom-elements.json; run npm run manifest');
});

test('custom-elements.json lists every attribute and event of the constants tables', () => {
  assert.deepEqual(new Set(element?.attributes?.map((attribute) => attribute.name)), new Set(Object.values(FxAttribute)));
  assert.deepEqual(new Set(element?.events?.map((event) => event.name)), new Set(Object.values(FxEvent)));
});

test('custom-elements.json holds the public API only: no private members', () => {
  const hidden = element?.members?.filter((member) => member.name.startsWith('#') || member.privacy === 'private' || member.privacy === 'protected') ?? [];
  assert.deepEqual(hidden.map((member) => member.name), []);
  assert.ok(element?.members?.some((member) => member.name === 'seek'), 'public methods stay listed');
});
