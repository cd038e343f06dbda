// What the host accepts from a frame as the answer to a change of values: a runtime from before reruns (no
// `ranAgain`) still counts, anything else malformed is dropped whole.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isFrameMessage } from '../../../src/runtime/protocol/host.js';
import { Message } from '../../../src/runtime/protocol/messages.js';

const answer = { type: Message.variables, values: { title: 'x' }, issues: [], readsVariablesAtLoad: true };

describe('variables', () => {
  test('accepts an answer that ran the scripts again, did not, or does not say (a runtime before reruns)', () => {
    for (const ranAgain of [true, false, undefined])
      assert.equal(isFrameMessage({ ...answer, ranAgain }), true, String(ranAgain));
  });

  test('refuses a ranAgain that is not a boolean', () => {
    for (const ranAgain of [null, 1, 'true', {}, []])
      assert.equal(isFrameMessage({ ...answer, ranAgain }), false, JSON.stringify(ranAgain));
  });
});
