// A render and its pg-boss job are stored in one transaction: a submit that answers 202 has its job, a submit whose
// job cannot be stored leaves no render. Runs in `npm run test:postgres`; skipped on SQLite (its in-process queue
// is rebuilt from the records at every start).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { jobIdOf } from '../../src/service/jobs/job-queue.pgboss.js';
import { sharedPostgresCluster } from '../fixtures/postgres-cluster.js';
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.js';
import { onPostgres } from './helpers/database.js';
import { compositionHtml, jsonInit, startTestService, uploadProject, type TestService } from './helpers/harness.js';

const skip = onPostgres ? false : 'PostgreSQL only (npm run test:postgres)';

describe('submit and enqueue in one transaction', { skip }, () => {
  let test_: TestService;
  let assetId: string;
  /** Between the service and its database (the test's own reads go direct). */
  let proxy: TcpProxy;
  before(async () => {
    proxy = await startTcpProxy((await sharedPostgresCluster()).port);
    // An API process: nothing takes the jobs, so they stay for the test to see.
    test_ = await startTestService((location) => {
      const url = new URL(location.databaseUrl!);
      url.port = String(proxy.port);
      return { role: 'api', databaseUrl: url.href };
    });
    assetId = await uploadProject(test_, { 'index.html': compositionHtml() });
  });
  after(async () => {
    await test_?.close();
    await proxy?.close();
  });

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

  test('a submit whose COMMIT landed but whose answer the connection lost answers 202 once: the retry replays it', async () => {
    const before_ = await test_.count('renders');
    // Cuts the connection that stores the render right after the server got its COMMIT.
    const storing = new WeakSet<object>();
    proxy.intercept((chunk, connection) => {
      if (chunk.includes('INSERT INTO renders')) storing.add(connection);
      if (!storing.has(connection) || !chunk.includes('COMMIT')) return 'pass';
      proxy.intercept(undefined);
      return 'cut-after';
    });
    const cuts = proxy.cutCount;
    const first = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }, { 'idempotency-key': 'lost-commit' }));
    assert.equal(proxy.cutCount, cuts + 1, 'the connection was not cut');
    assert.equal(first.status, 202);
    const { render_id } = (await first.json()) as { render_id: string };
    assert.deepEqual(await jobsOf(render_id), [{ state: 'created' }]);
    const retry = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }, { 'idempotency-key': 'lost-commit' }));
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(((await retry.json()) as { render_id: string }).render_id, render_id);
    assert.equal(await test_.count('renders'), before_ + 1);
  });
});
