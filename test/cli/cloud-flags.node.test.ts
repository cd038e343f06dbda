/** The flags of `fx cloud render` as client options: `--metadata`, and the shared render flags under the client's names. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { metadataFlag, sharedClientSettings } from '../../src/cli/commands/cloud-flags.js';
import { isFxError } from '../../src/runtime/errors.js';

const codeOf = (work: () => unknown) => {
  try {
    work();
    return 'read';
  } catch (error) {
    return isFxError(error) ? error.code : `not an FxError: ${error}`;
  }
};

test('--metadata: a JSON object; absent is undefined', () => {
  assert.deepEqual(metadataFlag('{"order":"A-17","n":{"k":1}}'), { order: 'A-17', n: { k: 1 } });
  assert.equal(metadataFlag(undefined), undefined);
});

for (const [name, text] of [
  ['not JSON', '{order:'],
  ['an array', '[1]'],
  ['null', 'null'],
  ['a string', '"A-17"'],
  ['a number', '7'],
  ['empty', ''],
] as const) {
  test(`--metadata ${name}: cli_metadata_invalid`, () => {
    assert.equal(
      codeOf(() => metadataFlag(text)),
      'cli_metadata_invalid',
    );
  });
}

test('the shared flags, parsed, become the client options of the same names; absent ones stay out', () => {
  assert.deepEqual(
    sharedClientSettings({
      format: 'gif',
      fps: 12,
      time: undefined,
      thumbnailTime: 0.5,
      range: { start: 1, end: 2 },
      loop: false,
    }),
    { format: 'gif', fps: 12, thumbnailTime: 0.5, range: { start: 1, end: 2 }, loop: false },
  );
  assert.deepEqual(sharedClientSettings({ format: 'png', time: 2.5 }), { format: 'png', time: 2.5 });
  // Whatever else the shared flags parse is not a client option.
  assert.deepEqual(sharedClientSettings({ quality: 'high', extra: 1 } as never), { quality: 'high' });
});
