/** `fx types`' printer: a TypeScript interface of a composition's declared variables. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { variablesType } from '../../../src/cli/commands/types.js';

test('variablesType: every declared type, optional fields, odd ids quoted, comments closed safely', () => {
  const source = variablesType(
    [
      { id: 'title', type: 'string', label: 'Title */ evil', default: 'x' },
      { id: 'n', type: 'number', label: 'N', default: 1 },
      { id: 'on', type: 'boolean', label: 'On', default: true },
      { id: 'c', type: 'color', label: 'C', default: '#fff' },
      {
        id: 'mode',
        type: 'enum',
        label: 'Mode',
        default: 'a',
        options: [
          { value: 'a', label: 'A' },
          { value: 'b"', label: 'B' },
        ],
      },
      { id: 'font', type: 'font', label: 'Font', default: 'Inter' },
      { id: 'logo', type: 'image', label: 'Logo', default: 'logo.svg' },
      { id: 'my-id', type: 'string', label: 'Dash', default: '' },
    ],
    'V',
  );
  for (const line of [
    'title?: string;',
    'n?: number;',
    'on?: boolean;',
    'c?: string;',
    'mode?: "a" | "b\\"";',
    'font?: string | { name: string; source?: string };',
    'logo?: string | { url: string };',
    '"my-id"?: string;',
  ]) {
    assert.ok(source.includes(`  ${line}\n`), `${line} in\n${source}`);
  }
  assert.doesNotMatch(source, /Title \*\/ evil/);
});
