// The BroadcastChannel lock (browsers without Web Locks), in Node, whose BroadcastChannel behaves as a browser's:
// a channel hears only messages posted after it opened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { broadcastChannelLock } from '../../src/auth/lock.js';

test('contenders opening their channels one after another never hold the lock together', async () => {
  let holders = 0;
  let most = 0;
  const task = (value: number) => async () => {
    holders += 1;
    most = Math.max(most, holders);
    await sleep(20);
    holders -= 1;
    return value;
  };
  const results = await Promise.all([1, 2, 3, 4].map((value) => broadcastChannelLock('fx-test-lock', task(value))));
  assert.deepEqual(results, [1, 2, 3, 4]);
  assert.equal(most, 1);
});

test('a task that throws releases the lock', async () => {
  const failing = broadcastChannelLock('fx-test-lock-2', async () => {
    throw new Error('boom');
  });
  const next = broadcastChannelLock('fx-test-lock-2', async () => 'ran');
  await assert.rejects(failing, /boom/);
  assert.equal(await next, 'ran');
});
