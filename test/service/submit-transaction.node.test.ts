// A render and its pg-boss job are stored in one transaction: a submit that answers 202 has its job, a submit whose
// job cannot be stored leaves no render. Runs in `npm run test:postgres`; skipped on SQLite (its in-process queue
// is rebuilt from the records at every start).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { jobIdOf } from '../../src/service/jobs/job-queue.pgboss.js';
import { onPostgres } from './helpers/database.js';
import { compositionHtml, jsonInit, startTestService, uploadProject, type TestService } from './helpers/harness.js';

const skip = onPostgres ? false : 'PostgreSQL only (npm run test:postgres)';

describe('submit and enqueue in one transaction', { skip }, () => {
  let test_: TestService;
  let assetId: string;
  before(async () => {
    // An API process: nothing takes the jobs, so they stay for the test to see.
    test_ = await startTestService({ role: 'api' });
    assetId = await uploadProject(test_, { 'index.html': compositionHtml() });
  });
  after(() => test_?.close());

  const jobsOf = async (renderId: string) =>
    test_.rows(`SELECT state FROM pgboss.job WHERE name = 'render' AND id = '${jobIdOf(renderId)}'`);

  test('a submit that answers 202 has its job already', async () => {
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }));
    assert.equal(response.status, 202);
    const { render_id } = (await response.json()) as { render_id: string };
    assert.deepEqual(await jobsOf(render_id), [{ state: 'created' }]);
  });

  test('a job that cannot be stored takes its render with it: no render without a job', async () => {
    const before = await test_.count('renders');
    // The fault: every insert of a job fails, after the render's insert went through.
    await test_.rows(`CREATE FUNCTION refuse_job() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'injected: job insert refused'; END $$`);
    await test_.rows(
      `CREATE TRIGGER refuse_job BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION refuse_job()`,
    );
    try {
      const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }));
      assert.equal(response.status, 500);
      assert.equal(await test_.count('renders'), before, 'a render was stored without its job');
    } finally {
      await test_.rows(`DROP TRIGGER refuse_job ON pgboss.job`);
    }
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }));
    assert.equal(response.status, 202);
    assert.equal(await test_.count('renders'), before + 1);
  });

  test('a commit that fails stores neither render nor job', async () => {
    const jobs = await test_.count('pgboss.job');
    const renders = await test_.count('renders');
    // Checked at COMMIT, after both inserts: the whole transaction rolls back.
    await test_.rows(`CREATE FUNCTION refuse_commit() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'injected: commit refused'; END $$`);
    await test_.rows(`CREATE CONSTRAINT TRIGGER refuse_commit AFTER INSERT ON renders DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION refuse_commit()`);
    try {
      const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }));
      assert.equal(response.status, 500);
    } finally {
      await test_.rows(`DROP TRIGGER refuse_commit ON renders`);
    }
    assert.equal(await test_.count('renders'), renders);
    assert.equal(await test_.count('pgboss.job'), jobs);
  });
});
