import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCode } from '../../src/wire/constants.js';
import {
  checkRenderRequest,
  defaultFps,
  FORMAT_ONLY_FIELDS,
  GIF_FPS,
  METADATA_LIMITS,
  RENDER_FORMATS,
} from '../../src/wire/render-request.js';

const base = { asset_id: 'ast_x' };
const problemOf = (body: Record<string, unknown>) => {
  const checked = checkRenderRequest({ ...base, ...body });
  if (!('problem' in checked)) assert.fail(`accepted ${JSON.stringify(body)}`);
  return checked.problem;
};
const accepts = (body: Record<string, unknown>) => {
  const checked = checkRenderRequest({ ...base, ...body });
  assert.ok('fields' in checked, JSON.stringify(checked));
  return checked.fields;
};

test('every format is accepted with the fields that apply to it', () => {
  for (const format of RENDER_FORMATS) accepts({ format });
  accepts({ format: 'png', time: 2.5 });
  accepts({ format: 'webp', time: 0 });
  accepts({ format: 'gif', loop: false, fps: GIF_FPS.max, range: { start: 0, end: 1 }, thumbnail_time: 0.5 });
  accepts({ format: 'mp4', range: { start: 1.5, end: 4 }, thumbnail_time: 2 });
  accepts({ format: 'jpeg', resolution: '4k', time: 1 });
  accepts({ metadata: { order: 'A-1', tags: ['x'], nested: { a: { b: 1 } } }, dry_run: true });
});

test('a field of other formats is a conflict naming the formats it applies to', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ time: 1 }, 'time'],
    [{ format: 'gif', time: 1 }, 'time'],
    [{ format: 'png', thumbnail_time: 1 }, 'thumbnail_time'],
    [{ format: 'jpeg', range: { start: 0, end: 1 } }, 'range'],
    [{ format: 'webm', loop: true }, 'loop'],
  ];
  for (const [body, param] of cases) {
    const problem = problemOf(body);
    assert.equal(problem.code, ErrorCode.parameterConflict, JSON.stringify(body));
    assert.equal(problem.param, param);
    const formats = FORMAT_ONLY_FIELDS[param as keyof typeof FORMAT_ONLY_FIELDS]!;
    assert.match(problem.message, new RegExp(`applies to "format" ${JSON.stringify(formats[0])}`));
  }
});

test('a GIF renders at 15 fps by default and at most 30', () => {
  assert.equal(defaultFps('gif'), GIF_FPS.default);
  assert.equal(defaultFps('mp4'), 30);
  const problem = problemOf({ format: 'gif', fps: 60 });
  assert.equal(problem.code, ErrorCode.parameterInvalid);
  assert.equal(problem.param, 'fps');
  assert.match(problem.message, /"fps" of a GIF must be at most 30, got 60/);
});

test('4k only in mp4 and jpeg', () => {
  for (const format of ['webm', 'mov', 'gif', 'png', 'webp']) {
    const problem = problemOf({ format, resolution: '4k' });
    assert.equal(problem.code, ErrorCode.resolutionFormatUnsupported, format);
    assert.equal(problem.param, 'resolution');
  }
  assert.match(problemOf({ format: 'gif', resolution: '4k' }).message, /a 4k GIF would weigh hundreds of megabytes/);
});

test('times and ranges: numbers of seconds within bounds, a range holding a frame', () => {
  for (const time of [-1, '1', null, Number.NaN, Infinity, 86_401, [1]]) {
    const problem = problemOf({ format: 'png', time });
    assert.equal(problem.code, ErrorCode.parameterInvalid, String(time));
    assert.equal(problem.param, 'time');
  }
  for (const range of [[0, 1], { start: 0 }, { start: 0, end: 1, step: 1 }, { start: '0', end: 1 }, null, 'all']) {
    const problem = problemOf({ range });
    assert.equal(problem.code, ErrorCode.parameterInvalid, JSON.stringify(range));
    assert.equal(problem.param, 'range');
  }
  for (const range of [
    { start: 2, end: 1 },
    { start: 1, end: 1 },
    { start: 0.001, end: 0.01 },
  ]) {
    const problem = problemOf({ range });
    assert.equal(problem.code, ErrorCode.parameterInvalid, JSON.stringify(range));
    assert.match(problem.message, /must hold at least one frame at 30 fps/);
  }
  // At 15 fps (a GIF's default) a 0.05 s range holds a frame only where it crosses a frame's half.
  accepts({ format: 'gif', range: { start: 0, end: 0.05 } });
});

test('metadata: an object of at most 4 KiB and 4 levels, refused with its own codes', () => {
  for (const metadata of ['x', [1], null, 3]) {
    const problem = problemOf({ metadata });
    assert.equal(problem.code, ErrorCode.parameterInvalid, JSON.stringify(metadata));
    assert.equal(problem.param, 'metadata');
  }
  const deep = problemOf({ metadata: { a: { b: { c: { d: { e: 1 } } } } } });
  assert.deepEqual([deep.code, deep.param], [ErrorCode.metadataTooDeep, 'metadata']);
  accepts({ metadata: { a: { b: { c: { d: 1 } } } } });
  // Deep enough to overflow a recursive walk: measured without recursion, refused before zod reads it.
  let hostile: Record<string, unknown> = {};
  for (let level = 0; level < 100_000; level++) hostile = { next: hostile };
  assert.equal(problemOf({ metadata: hostile }).code, ErrorCode.metadataTooDeep);
  const fits = { text: 'x'.repeat(METADATA_LIMITS.bytes - '{"text":""}'.length) };
  accepts({ metadata: fits });
  const large = problemOf({ metadata: { ...fits, more: 1 } });
  assert.deepEqual([large.code, large.param], [ErrorCode.metadataTooLarge, 'metadata']);
  assert.match(large.message, /at most 4096 bytes as JSON, got 4105/);
  // Bytes, not characters.
  assert.equal(problemOf({ metadata: { text: 'é'.repeat(2100) } }).code, ErrorCode.metadataTooLarge);
});

test('dry_run and loop are booleans', () => {
  assert.equal(problemOf({ dry_run: 'yes' }).param, 'dry_run');
  assert.equal(problemOf({ format: 'gif', loop: 0 }).param, 'loop');
});
