// Which ids composition scripts read through `getVariables()` (src/runtime/frame/script-reads.ts), in Node: every
// way of reading is recorded, nothing a script sees changes, and the report is bounded and rate-limited. The
// host's side of the same report: addTrustedReads (src/elements/composition/frame-reports.ts).
import { describe, test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptReads } from '../../../src/runtime/frame/script-reads.js';
import { SCRIPT_READS, Message } from '../../../src/runtime/protocol/messages.js';
import { isFrameMessage } from '../../../src/runtime/protocol/host.js';
import { addTrustedReads } from '../../../src/elements/composition/frame-reports.js';

const values = () => ({ title: 'Hello', size: 20, shown: true });

/** A ScriptReads whose reports are collected; `flush` runs the pending report timer. */
function recorder() {
  mock.timers.enable({ apis: ['setTimeout'] });
  const reports: string[][] = [];
  const reads = new ScriptReads();
  reads.report = (ids) => reports.push(ids);
  return { reads, reports, flush: () => mock.timers.tick(SCRIPT_READS.intervalMs) };
}

describe('ScriptReads records', () => {
  const cases: [string, (v: Record<string, unknown>) => unknown, string[]][] = [
    ['a property', (v) => v.title, ['title']],
    ['an undeclared property', (v) => v.later, ['later']],
    ['destructuring', ({ size, missing }) => [size, missing], ['size', 'missing']],
    ['`in`', (v) => 'flag' in v, ['flag']],
    ['Object.hasOwn', (v) => Object.hasOwn(v, 'size'), ['size']],
    ['Object.keys', (v) => Object.keys(v), ['title', 'size', 'shown']],
    ['Object.entries', (v) => Object.entries(v), ['title', 'size', 'shown']],
    ['spread', (v) => ({ ...v }), ['title', 'size', 'shown']],
    ['JSON.stringify (its values, not toJSON)', (v) => JSON.stringify(v), ['title', 'size', 'shown']],
    ['nothing for toString, then or hasOwnProperty', (v) => [String(v), v.then, v.hasOwnProperty('x')], ['x']],
  ];
  for (const [name, read, expected] of cases) {
    test(name, () => {
      const { reads, reports, flush } = recorder();
      read(reads.watch(values()));
      flush();
      assert.deepEqual(reports, [expected]);
      mock.timers.reset();
    });
  }

  test('an own key named like an Object.prototype member counts', () => {
    const { reads, reports, flush } = recorder();
    void reads.watch({ constructor: 'declared' }).constructor;
    flush();
    assert.deepEqual(reports, [['constructor']]);
    mock.timers.reset();
  });
});

describe('ScriptReads changes nothing a script sees', () => {
  test('values, keys, JSON, spread, prototype, frozen-ness and writes are the plain object’s', () => {
    const { reads } = recorder();
    const plain = values();
    const watched = reads.watch(values());
    assert.equal(JSON.stringify(watched), JSON.stringify(plain));
    assert.deepEqual(Object.entries(watched), Object.entries(plain));
    assert.deepEqual({ ...watched }, plain);
    assert.equal(Object.getPrototypeOf(watched), Object.prototype);
    assert.equal(Object.isFrozen(watched), false);
    assert.equal(Array.isArray(watched), false);
    watched.title = 'Changed';
    delete (watched as Partial<typeof plain>).size;
    assert.deepEqual({ ...watched }, { title: 'Changed', shown: true });
    assert.deepEqual(
      Object.getOwnPropertyDescriptor(watched, 'shown'),
      Object.getOwnPropertyDescriptor(plain, 'shown'),
    );
    mock.timers.reset();
  });
});

describe('ScriptReads reports', () => {
  test('at most once per interval, the whole list so far each time', () => {
    const { reads, reports, flush } = recorder();
    const watched = reads.watch(values());
    void watched.title;
    void watched.size;
    assert.deepEqual(reports, []);
    flush();
    void watched.title;
    flush();
    assert.deepEqual(reports, [['title', 'size']], 'a read of a known id reports nothing');
    void watched.shown;
    flush();
    assert.deepEqual(reports, [
      ['title', 'size'],
      ['title', 'size', 'shown'],
    ]);
    mock.timers.reset();
  });

  test(`no more than ${SCRIPT_READS.maxIds} ids, none empty or longer than ${SCRIPT_READS.maxIdLength} characters`, () => {
    const { reads, reports, flush } = recorder();
    const watched = reads.watch<Record<string, unknown>>({});
    void watched[''];
    void watched['x'.repeat(SCRIPT_READS.maxIdLength + 1)];
    void watched['y'.repeat(SCRIPT_READS.maxIdLength)];
    for (let i = 0; i < 10_000; i++) void watched[`id${i}`];
    flush();
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.length, SCRIPT_READS.maxIds);
    assert.equal(reports[0]![0], 'y'.repeat(SCRIPT_READS.maxIdLength));
    mock.timers.reset();
  });
});

describe('the host’s side of reads', () => {
  test('a reads message must carry a list of strings', () => {
    assert.equal(isFrameMessage({ type: Message.reads, ids: ['a', 'b'] }), true);
    for (const ids of [undefined, 'a', [1], ['a', null], [{}], { 0: 'a', length: 1 }])
      assert.equal(isFrameMessage({ type: Message.reads, ids }), false, JSON.stringify(ids));
  });

  test('addTrustedReads keeps at most maxIds ids of the allowed length, and says when it grew', () => {
    const known = new Set<string>();
    assert.equal(addTrustedReads(known, ['a', '', 'x'.repeat(SCRIPT_READS.maxIdLength + 1), 'a']), true);
    assert.deepEqual([...known], ['a']);
    assert.equal(addTrustedReads(known, ['a']), false);
    const many = Array.from({ length: 5000 }, (_, i) => `id${i}`);
    addTrustedReads(known, many);
    addTrustedReads(known, many.slice(2500));
    assert.equal(known.size, SCRIPT_READS.maxIds);
    assert.equal(addTrustedReads(known, ['more']), false);
  });

  test('a 2^28-long sparse list is not walked', () => {
    const sparse = ['a'];
    sparse.length = 2 ** 28;
    const started = performance.now();
    assert.equal(isFrameMessage({ type: Message.reads, ids: sparse }), true);
    addTrustedReads(new Set(), sparse);
    assert.ok(performance.now() - started < 500);
  });
});
