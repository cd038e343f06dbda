// renderBatch: one render per row of values, rows merged over the base variables, failures kept per row.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FxError, isFxError } from '../../src/runtime/errors.js';
import { renderBatch } from '../../src/render/index.js';
import type { BatchBaseOptions, RenderOptions, RenderResult } from '../../src/render/types.js';
import { FIXTURES, pixelAt, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

const base = (change: Partial<BatchBaseOptions> = {}): BatchBaseOptions => ({
  projectDir: join(FIXTURES, 'animated'),
  composition: 'index.html',
  fps: 5,
  quality: 'draft',
  format: 'mp4',
  variables: { title: 'Batch' },
  outputPath: (_, index) => join(dir.path, `row-${index}.mp4`),
  ...change,
});

/** A stand-in renderer that records what it was asked. */
function recordingRenderer(fail: (options: RenderOptions) => Error | undefined = () => undefined) {
  const calls: RenderOptions[] = [];
  let running = 0;
  let peak = 0;
  const renderOne = async (options: RenderOptions): Promise<RenderResult> => {
    calls.push(options);
    running++;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, 20));
    running--;
    const error = fail(options);
    if (error) throw error;
    return {
      videoPath: options.outputPath,
      thumbnailPath: `${options.outputPath}.jpg`,
      width: 1,
      height: 1,
      fps: options.fps,
      frames: 1,
      duration: 1,
      start: 0,
    };
  };
  return { calls, renderOne, peak: () => peak };
}

test('renders once per row, each row merged over the base variables', async () => {
  const rows = [{ accent: '#ff0000' }, { accent: '#0000ff' }];
  const progressRows = new Set<number>();
  const results = await renderBatch(base({ onProgress: (progress) => progressRows.add(progress.row) }), rows, {
    concurrency: 2,
  });
  assert.deepEqual(
    results.map((result) => [result.row, result.status]),
    [
      [0, 'completed'],
      [1, 'completed'],
    ],
  );
  assert.deepEqual([...progressRows].sort(), [0, 1]);
  const red = await pixelAt(join(dir.path, 'row-0.mp4'), 5, 300, 160);
  const blue = await pixelAt(join(dir.path, 'row-1.mp4'), 5, 300, 160);
  assert.ok(red[0] > 200 && red[2] < 50, `row 0 is red, got ${red}`);
  assert.ok(blue[2] > 200 && blue[0] < 50, `row 1 is blue, got ${blue}`);
});

test('row values override base values, and the base values stay for the rest', async () => {
  const { calls, renderOne } = recordingRenderer();
  await renderBatch(base({ variables: { title: 'Base', accent: '#111111' } }), [{ title: 'Row' }], {}, renderOne);
  assert.deepEqual(calls[0]!.variables, { title: 'Row', accent: '#111111' });
});

test('a failed row keeps its code and does not stop the others', async () => {
  const { renderOne } = recordingRenderer((options) =>
    options.variables?.title === 'bad' ? new FxError('composition_not_found', 'gone') : undefined,
  );
  const results = await renderBatch(base(), [{ title: 'a' }, { title: 'bad' }, { title: 'c' }], {}, renderOne);
  assert.deepEqual(
    results.map((result) => result.status),
    ['completed', 'failed', 'completed'],
  );
  const failed = results[1]!;
  assert.ok(failed.status === 'failed' && failed.error.code === 'composition_not_found');
});

test('an unexpected error is reported as render_failed', async () => {
  const { renderOne } = recordingRenderer(() => new Error('disk full'));
  const [result] = await renderBatch(base(), [{}], {}, renderOne);
  assert.ok(
    result!.status === 'failed' && result!.error.code === 'render_failed' && result!.error.message === 'disk full',
  );
});

test('never runs more rows at once than asked', async () => {
  const { renderOne, peak } = recordingRenderer();
  await renderBatch(
    base(),
    Array.from({ length: 7 }, (_, index) => ({ title: String(index) })),
    { concurrency: 3 },
    renderOne,
  );
  assert.equal(peak(), 3);
});

test('an abort fails the rows not yet started with render_aborted', async () => {
  const controller = new AbortController();
  const { calls, renderOne } = recordingRenderer(() => {
    controller.abort();
    return undefined;
  });
  const results = await renderBatch(base({ signal: controller.signal }), [{}, {}, {}], {}, renderOne);
  assert.equal(calls.length, 1);
  assert.deepEqual(
    results.map((result) => (result.status === 'failed' ? result.error.code : result.status)),
    ['completed', 'render_aborted', 'render_aborted'],
  );
});

const hasCode = (code: string) => (error: unknown) => isFxError(error, code);

test('two rows writing the same file are refused before any render', async () => {
  const { calls, renderOne } = recordingRenderer();
  await assert.rejects(
    renderBatch(base({ outputPath: () => join(dir.path, 'same.mp4') }), [{}, {}], {}, renderOne),
    hasCode('render_option_invalid'),
  );
  assert.equal(calls.length, 0);
});

for (const [name, rows] of [
  ['a row that is an array', [[1]]],
  ['a row that is null', [null]],
  ['a row that is a string', ['{}']],
  ['rows that are not an array', { a: 1 }],
] as const) {
  test(`${name} is refused with render_option_invalid`, async () => {
    const { calls, renderOne } = recordingRenderer();
    await assert.rejects(
      renderBatch(base(), rows as unknown as Record<string, unknown>[], {}, renderOne),
      hasCode('render_option_invalid'),
    );
    assert.equal(calls.length, 0);
  });
}

for (const concurrency of [0, 1.5, 99]) {
  test(`batch concurrency ${concurrency} is refused with render_option_invalid`, async () => {
    await assert.rejects(
      renderBatch(base(), [{}], { concurrency }, recordingRenderer().renderOne),
      hasCode('render_option_invalid'),
    );
  });
}
