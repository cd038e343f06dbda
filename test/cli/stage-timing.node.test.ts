/** The clock text of a stage's elapsed and remaining time. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('clock text: minutes and seconds, hours once past an hour', async () => {
  const { clockText } = await import('../../src/cli/stage-timing.js');
  assert.deepEqual([0, 7_400, 723_000, 3_723_000].map(clockText), ['0:00', '0:07', '12:03', '1:02:03']);
});
