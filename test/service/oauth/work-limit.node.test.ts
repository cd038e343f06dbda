// WorkLimit (src/service/oauth/work-limit.ts): password checks a few at a time, a few waiting, the rest refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WorkLimit, WorkLimitBusyError } from '../../../src/service/oauth/work-limit.js';

describe('WorkLimit', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  };

  test('runs at most `concurrency` tasks at once, queues `queue` more, refuses the rest at once', async () => {
    const limit = new WorkLimit(2, 1);
    let running = 0;
    let most = 0;
    const gates = [deferred(), deferred(), deferred()];
    const task = (gate: { promise: Promise<void> }) => async () => {
      most = Math.max(most, ++running);
      await gate.promise;
      running--;
    };
    const runs = gates.map((gate) => limit.run(task(gate)));
    await assert.rejects(
      limit.run(async () => {}),
      WorkLimitBusyError,
    );
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    assert.equal(most, 2);
  });

  test('a failing task frees its slot', async () => {
    const limit = new WorkLimit(1, 0);
    await assert.rejects(
      limit.run(async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await limit.run(async () => 'next'), 'next');
  });

  test('waiting tasks run in order as slots free', async () => {
    const limit = new WorkLimit(1, 3);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((index) => limit.run(async () => void order.push(index))));
    assert.deepEqual(order, [1, 2, 3, 4]);
  });
});
