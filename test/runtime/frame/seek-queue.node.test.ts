import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_WAIT_MS, SeekQueue, type QueuedSeek } from '../../../src/runtime/frame/seek-queue.js';

/** A queue whose seeks finish when the test says so; records what ran and what was answered. */
function harness() {
  const ran: QueuedSeek[] = [];
  const answered: [number, number][] = [];
  const finishers: ((time?: number) => void)[] = [];
  const queue = new SeekQueue(
    (seek) => {
      ran.push(seek);
      return new Promise((resolve, reject) =>
        finishers.push((time) => (time === undefined ? reject(new Error('seek failed')) : resolve(time))),
      );
    },
    (id, time) => answered.push([id, time]),
  );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { queue, ran, answered, finishers, settle };
}

const seek = (id: number, time: number, scrubbing = false): QueuedSeek => ({ id, time, scrubbing });

test('a seek on its own runs at once and is answered with where it landed', async () => {
  const { queue, ran, answered, finishers, settle } = harness();
  queue.push(seek(1, 1.3));
  assert.deepEqual(ran, [seek(1, 1.3)]);
  finishers[0]!(1.3);
  await settle();
  assert.deepEqual(answered, [[1, 1.3]]);
});

test('a seek arriving while another runs starts only once that one is answered', async () => {
  const { queue, ran, answered, finishers, settle } = harness();
  queue.push(seek(1, 1));
  queue.push(seek(2, 1.3));
  await settle();
  assert.deepEqual(ran, [seek(1, 1)], 'the second waits');
  finishers[0]!(1);
  await settle();
  assert.deepEqual(answered, [[1, 1]]);
  assert.deepEqual(ran, [seek(1, 1), seek(2, 1.3)]);
  finishers[1]!(1.3);
  await settle();
  assert.deepEqual(answered, [
    [1, 1],
    [2, 1.3],
  ]);
});

test('of the seeks that waited only the newest runs; the overtaken are answered with it, in order', async () => {
  const { queue, ran, answered, finishers, settle } = harness();
  queue.push(seek(1, 0.5));
  queue.push(seek(2, 0.6, true));
  queue.push(seek(3, 0.7, true));
  queue.push(seek(4, 0.8));
  finishers[0]!(0.5);
  await settle();
  assert.deepEqual(ran, [seek(1, 0.5), seek(4, 0.8)], 'the newest runs with its own scrub flag');
  finishers[1]!(0.8);
  await settle();
  assert.deepEqual(answered, [
    [1, 0.5],
    [2, 0.8],
    [3, 0.8],
    [4, 0.8],
  ]);
});

test('a seek that fails is not answered, and the queue goes on', async () => {
  const { queue, ran, answered, finishers, settle } = harness();
  queue.push(seek(1, 1));
  queue.push(seek(2, 2));
  finishers[0]!();
  await settle();
  assert.deepEqual(answered, []);
  assert.equal(ran.length, 2);
  finishers[1]!(2);
  await settle();
  assert.deepEqual(answered, [[2, 2]]);
  queue.push(seek(3, 0));
  assert.equal(ran.length, 3, 'an idle queue runs the next seek at once');
});

test('flush starts the waiting seeks at once (play and pause follow them in order), and the queue goes on after them', async () => {
  const { queue, ran, answered, finishers, settle } = harness();
  assert.equal(queue.flush(), false, 'nothing waits');
  queue.push(seek(1, 1));
  queue.push(seek(2, 0));
  assert.equal(queue.flush(), true);
  assert.deepEqual(ran, [seek(1, 1), seek(2, 0)], 'the waiting seek runs beside the one running');
  queue.push(seek(3, 0.5));
  finishers[0]!(1);
  await settle();
  assert.equal(ran.length, 2, 'the next waits for the flushed batch, not the older one');
  finishers[1]!(0);
  await settle();
  assert.deepEqual(ran.at(-1), seek(3, 0.5));
  finishers[2]!(0.5);
  await settle();
  assert.deepEqual(answered, [
    [1, 1],
    [2, 0],
    [3, 0.5],
  ]);
});

test('a seek that hangs holds the next one back for MAX_WAIT_MS at most', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { queue, ran, answered, finishers, settle } = harness();
  queue.push(seek(1, 1));
  queue.push(seek(2, 2));
  t.mock.timers.tick(MAX_WAIT_MS - 1);
  await settle();
  assert.equal(ran.length, 1, 'still waiting');
  t.mock.timers.tick(1);
  await settle();
  assert.deepEqual(ran.at(-1), seek(2, 2));
  finishers[1]!(2);
  finishers[0]!(1);
  await settle();
  assert.deepEqual(answered, [
    [2, 2],
    [1, 1],
  ]);
});
