// Issue 8 item 16: `progress.frames_total` is null until the renderer knows the frame count, as openapi.yaml says
// (a client dividing by a 0 got NaN). The record is checked against the schema written in openapi.yaml.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { RenderFunction } from '../../src/render/types.js';
import { createFfmpegRenderer } from '../service/helpers/ffmpeg-renderer.js';
import { jsonInit, startTestService, uploadProject, waitFor, waitForFinished } from '../service/helpers/harness.js';

const yaml = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');

interface IntegerSchema {
  readonly types: readonly string[];
  readonly minimum: number | undefined;
}

/** The flow-style schema `name: { type: [integer, 'null'], minimum: 1, … }` of a property of `Render.progress`. */
function progressProperty(name: string): IntegerSchema {
  const lines = yaml.split('\n');
  const render = lines.findIndex((line) => /^ {4}Render:$/.test(line));
  const progress = lines.findIndex((line, index) => index > render && /^ {8}progress:$/.test(line));
  const line = lines.slice(progress).find((candidate) => new RegExp(`^\\s+${name}: \\{`).test(candidate));
  assert.ok(render >= 0 && progress >= 0 && line, `no Render.progress.${name} in openapi.yaml`);
  const type = /type: (\[[^\]]*\]|\w+)/.exec(line)![1]!;
  const types = type.startsWith('[')
    ? type
        .slice(1, -1)
        .split(',')
        .map((item) => item.trim().replace(/'/g, ''))
    : [type];
  const minimum = /minimum: (\d+)/.exec(line)?.[1];
  return { types, minimum: minimum === undefined ? undefined : Number(minimum) };
}

function conforms(value: unknown, schema: IntegerSchema): boolean {
  if (value === null) return schema.types.includes('null');
  return (
    schema.types.includes('integer') &&
    Number.isInteger(value) &&
    (schema.minimum === undefined || (value as number) >= schema.minimum)
  );
}

test('progress.frames_total is null while compiling and conforms to openapi.yaml at every stage', async () => {
  const framesTotal = progressProperty('frames_total');
  const framesDone = progressProperty('frames_done');
  assert.ok(framesTotal.types.includes('null'), 'openapi.yaml lets frames_total be null');
  assert.equal(framesTotal.minimum, 1, 'openapi.yaml says a known frame count is at least 1');

  let reported = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const finish = createFfmpegRenderer();
  // What src/render/render.ts reports before the composition is compiled: no frame count yet.
  const renderer: RenderFunction = async (options) => {
    options.onProgress?.({ stage: 'compiling', framesDone: 0, framesTotal: 0 });
    reported = true;
    await released;
    return finish(options);
  };
  const service = await startTestService({ render: renderer, concurrency: 1 });
  try {
    const assetId = await uploadProject(service, {
      'index.html':
        '<!doctype html><html><body><div data-composition-id="main" data-width="160" data-height="90" data-duration="0.5"></div></body></html>',
    });
    const submitted = await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 10 }));
    assert.equal(submitted.status, 202);
    const queued = (await submitted.json()) as { render_id: string; progress: Record<string, unknown> };
    const seen = [queued.progress];
    await waitFor(() => (reported ? true : undefined), 10_000, 'the compiling report');
    const compiling = (
      (await (await service.api(`/v3/renders/${queued.render_id}`)).json()) as { progress: Record<string, unknown> }
    ).progress;
    assert.equal(compiling.stage, 'compiling');
    seen.push(compiling);
    assert.equal(compiling.frames_total, null, 'frames_total while compiling');
    release();
    const finished = await waitForFinished(service, queued.render_id);
    assert.equal(finished.status, 'completed');
    seen.push(finished.progress as Record<string, unknown>);
    for (const progress of seen) {
      assert.ok(conforms(progress.frames_total, framesTotal), `frames_total ${JSON.stringify(progress)}`);
      assert.ok(conforms(progress.frames_done, framesDone), `frames_done ${JSON.stringify(progress)}`);
    }
    assert.equal((finished.progress as { frames_total: unknown }).frames_total, 5);
  } finally {
    release();
    await service.close();
  }
});
