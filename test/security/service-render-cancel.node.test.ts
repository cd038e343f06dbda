// Issue 8 item 13: cancelling a render at any moment must never leave an unhandled promise rejection behind (Node
// kills the whole service process on one). The renderer is driven directly with an AbortSignal, cancelled at a
// seeded random moment of every stage — compile, load, capture, thumbnail, encode, audio probe and mix — with a
// process-level trap that fails the test on any unhandled rejection or uncaught exception; then the same through
// the service, with `DELETE /v3/renders/{id}` at random moments.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { render } from '../../src/render/index.js';
import type { RenderProgress } from '../../src/render/types.js';
import { isFxError } from '../../src/runtime/errors.js';
import { filesIn, tempDir, wavBytes } from '../render/helpers.js';
import { jsonInit, startTestService, uploadProject, waitFor } from '../service/helpers/harness.js';
import { describeCaught, trapRejections } from './helpers/rejection-trap.js';
import { seededRandom } from './helpers/seeded-random.js';

const FPS = 10;
const DURATION = 0.6;
const FRAMES = Math.round(DURATION * FPS);
/** The frame the renderer keeps as the thumbnail: min(1 s, duration / 2). */
const THUMBNAIL_FRAME = Math.round(Math.min(1, DURATION / 2) * FPS);

const page = (
  body = '',
) => `<!doctype html><html><head><style>html, body { margin: 0; } #root { width: 160px; height: 90px; background: #204080; }
  .box { width: 40px; height: 40px; background: #fff; animation: move ${DURATION}s linear both; } @keyframes move { to { transform: translateX(120px); } }</style></head>
  <body><div id="root" data-composition-id="main" data-width="160" data-height="90" data-duration="${DURATION}"><div class="box"></div>${body}</div></body></html>`;

/** Where a cancel lands: a progress report to wait for, and which project has that stage at all. */
interface Moment {
  readonly name: string;
  readonly audio: boolean;
  /** `frame` is a random frame of the render, for moments inside the capture. */
  matches(progress: RenderProgress, frame: number): boolean;
}
const MOMENTS: readonly Moment[] = [
  { name: 'compile', audio: false, matches: (p) => p.stage === 'compiling' },
  { name: 'load', audio: false, matches: (p) => p.stage === 'loading' },
  { name: 'capture', audio: false, matches: (p, frame) => p.stage === 'capturing' && p.framesDone >= frame },
  { name: 'thumbnail', audio: false, matches: (p) => p.stage === 'capturing' && p.framesDone === THUMBNAIL_FRAME },
  { name: 'encode', audio: false, matches: (p) => p.stage === 'encoding' },
  // The audio is read from the page and probed while frames are captured, then mixed after the encode.
  { name: 'audio probe', audio: true, matches: (p) => p.stage === 'capturing' },
  { name: 'audio mix', audio: true, matches: (p) => p.stage === 'muxing' },
];
const RUNS_PER_MOMENT = 4;
const SERVICE_CANCELS = 16;

let dir: { path: string; cleanup: () => Promise<void> };
const projects = { plain: '', audio: '' };
before(async () => {
  dir = await tempDir('fx-cancel-test-');
  projects.plain = join(dir.path, 'plain');
  projects.audio = join(dir.path, 'audio');
  await mkdir(projects.plain);
  await mkdir(projects.audio);
  await writeFile(join(projects.plain, 'index.html'), page());
  await writeFile(join(projects.audio, 'index.html'), page('<audio src="tone.wav"></audio>'));
  await writeFile(join(projects.audio, 'tone.wav'), wavBytes());
});
after(() => dir.cleanup());

test(
  'renders cancelled at random moments of every stage reject with render_aborted and leave no unhandled rejection',
  { timeout: 600_000 },
  async () => {
    const random = seededRandom(8_13);
    const trap = trapRejections();
    const outcomes: string[] = [];
    try {
      for (let run = 0; run < MOMENTS.length * RUNS_PER_MOMENT; run++) {
        const moment = MOMENTS[run % MOMENTS.length]!;
        // A third of the cancels land synchronously inside the progress report, the rest after a random delay.
        const delayMs = random.below(3) === 0 ? undefined : random.below(60);
        const frame = random.below(FRAMES);
        const controller = new AbortController();
        const out = join(dir.path, `out-${run}`);
        let fired = false;
        const label = `run ${run} (${moment.name}${moment.name === 'capture' ? ` from frame ${frame}` : ''}, ${delayMs === undefined ? 'at once' : `after ${delayMs} ms`}, seed ${random.seed})`;
        try {
          await render({
            projectDir: moment.audio ? projects.audio : projects.plain,
            composition: 'index.html',
            fps: FPS,
            quality: 'draft',
            format: 'mp4',
            concurrency: random.below(3) === 0 ? 2 : 1,
            outputPath: join(out, 'video.mp4'),
            signal: controller.signal,
            onProgress: (progress) => {
              if (fired || !moment.matches(progress, frame)) return;
              fired = true;
              if (delayMs === undefined) controller.abort();
              else setTimeout(() => controller.abort(), delayMs);
            },
          });
          outcomes.push(`${label}: completed`);
        } catch (error) {
          assert.ok(
            isFxError(error) && error.code === 'render_aborted',
            `${label}: expected render_aborted, got ${String(error)}`,
          );
          assert.deepEqual(await filesIn(out), [], `${label}: an aborted render leaves nothing in its output folder`);
          outcomes.push(`${label}: aborted`);
        }
        assert.ok(fired, `${label}: the render never reached the moment to cancel at`);
      }
    } finally {
      const caught = await trap.settle();
      assert.equal(caught.length, 0, `unhandled rejections (seed ${random.seed}):\n${describeCaught(caught)}`);
    }
    // Late cancels (after the last step) may let a render finish; most must have been cut short.
    assert.ok(
      outcomes.filter((outcome) => outcome.endsWith('aborted')).length >= outcomes.length / 2,
      `too few renders were aborted:\n${outcomes.join('\n')}`,
    );
  },
);

test(
  'renders deleted through the service at random moments leave no unhandled rejection, and the service keeps serving',
  { timeout: 600_000 },
  async () => {
    const random = seededRandom(8_1313);
    const trap = trapRejections();
    // The DELETE is sent from the renderer's own progress report of the stage to cancel in, after a random delay,
    // so every stage is hit however short it is (polling the record would miss most of them).
    let plan: { stage: RenderProgress['stage']; delayMs: number; remove: () => Promise<Response> } | undefined;
    const deletions: Promise<Response>[] = [];
    const service = await startTestService({
      concurrency: 1,
      render: (options) =>
        render({
          ...options,
          onProgress: (progress) => {
            options.onProgress?.(progress);
            const current = plan;
            if (!current || progress.stage !== current.stage) return;
            plan = undefined;
            setTimeout(() => deletions.push(current.remove()), current.delayMs);
          },
        }),
    });
    try {
      const assetId = await uploadProject(service, { 'index.html': page() });
      const stages: RenderProgress['stage'][] = ['compiling', 'loading', 'capturing', 'encoding'];
      for (let run = 0; run < SERVICE_CANCELS; run++) {
        const stage = stages[run % stages.length]!;
        const delayMs = random.below(40);
        const label = `delete ${run} (in "${stage}" after ${delayMs} ms, seed ${random.seed})`;
        let id = '';
        plan = { stage, delayMs, remove: () => service.api(`/v3/renders/${id}`, { method: 'DELETE' }) };
        const submitted = await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: FPS, quality: 'draft' }));
        assert.equal(submitted.status, 202, `${label}: ${await submitted.clone().text()}`);
        id = ((await submitted.json()) as { render_id: string }).render_id;
        const deleted = await waitFor(() => deletions.shift(), 60_000, `${label}: the DELETE`);
        assert.equal(deleted.status, 200, `${label}: ${await deleted.clone().text()}`);
        assert.equal((await service.api(`/v3/renders/${id}`)).status, 404, label);
        // The job is over once its work folder is gone: the next cancel starts from a quiet service.
        await waitFor(
          () => (existsSync(join(service.dataDir, 'work', id)) ? undefined : true),
          60_000,
          `${label}: the job to end`,
        );
      }
      assert.equal((await service.api('/v3/account')).status, 200, 'the service still answers');
    } finally {
      await service.close();
      const caught = await trap.settle();
      assert.equal(caught.length, 0, `unhandled rejections (seed ${random.seed}):\n${describeCaught(caught)}`);
    }
  },
);
