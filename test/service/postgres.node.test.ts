// What only PostgreSQL can get wrong: several processes on one database, connections that drop, migrations run
// again. Runs in `npm run test:postgres` (FX_TEST_DATABASE=postgres); skipped in the SQLite run.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { openStores } from '../../src/service/db/open-stores.js';
import { migrate, MIGRATIONS } from '../../src/service/db/migrations.postgres.js';
import {
  isConnectionLost,
  openPostgres,
  outcomeOf,
  retryOnConnectionLoss,
  transaction,
  type PgPool,
} from '../../src/service/db/postgres.js';
import type { Stores } from '../../src/service/db/stores.js';
import { newId } from '../../src/service/ids.js';
import { createService, type Service } from '../../src/service/service.js';
import { StorageKey } from '../../src/service/storage/keys.js';
import type { NewRender, NewWebhookDelivery } from '../../src/service/renders/render-types.js';
import { IdPrefix, WebhookEventType } from '../../src/wire/constants.js';
import { sharedPostgresCluster, startPostgresCluster } from '../fixtures/postgres-cluster.js';
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.js';
import {
  newTestLocation,
  onPostgres,
  openTestDb,
  removeTestLocation,
  RENDER_REQUEST,
  type TestLocation,
} from './helpers/database.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';
import { compositionHtml, waitFor, zipInit } from './helpers/harness.js';
import { projectZip } from './helpers/zip-builder.js';

const skip = onPostgres ? false : 'PostgreSQL only (npm run test:postgres)';
const CALLBACK_URL = 'https://hooks.example.com/fx';

async function newRender(stores: Stores, accountId: string): Promise<string> {
  const render: NewRender = {
    id: newId(IdPrefix.render),
    accountId,
    credentialId: 'key_x',
    request: { ...RENDER_REQUEST, callback_url: CALLBACK_URL },
    warnings: [],
    projectKey: 'assets/ast_x',
    createdAt: Date.now(),
  };
  await stores.renders.create(render);
  return render.id;
}

const webhook = (renderId: string, accountId: string): NewWebhookDelivery => ({
  id: newId(IdPrefix.webhookMessage),
  renderId,
  accountId,
  url: CALLBACK_URL,
  eventType: WebhookEventType.completed,
  eventTime: Date.now(),
});

const COMPLETED = {
  warnings: [],
  videoKey: 'renders/x/video.mp4',
  thumbnailKey: 'renders/x/thumbnail.jpg',
  output: { width: 1920, height: 1080, frames: 30, duration: 1, start: 0 },
  credits: 1,
  finishedAt: 1,
  attempt: 1,
};

describe('two service processes on one database', { skip }, () => {
  let location: TestLocation;
  let first: Stores;
  let second: Stores;
  let accountId: string;
  before(async () => {
    location = await newTestLocation('fx-pg-race-');
    // Two pools: what two processes have.
    [first, second] = await Promise.all([openStores(location), openStores(location)]);
    accountId = (await first.accounts.ensure('race', Date.now())).id;
  });
  after(async () => {
    await Promise.all([first.close(), second.close()]);
    await removeTestLocation(location);
  });

  test('racing the claim of the same render: exactly one wins, the attempt is counted once', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => newRender(first, accountId)));
    for (const id of ids) {
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? first : second).renders.claim(id, Date.now())),
      );
      assert.equal(claims.filter(Boolean).length, 1, `one claim of ${id}`);
      assert.equal((await second.renders.find(id))?.attempts, 1);
    }
  });

  test('racing complete against fail: exactly one final state, with exactly its one webhook', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => newRender(first, accountId)));
    const db = await openTestDb(location);
    try {
      for (const id of ids) {
        await first.renders.claim(id, Date.now());
        const outcomes = await Promise.all([
          first.renders.complete(id, COMPLETED, webhook(id, accountId)),
          second.renders.fail(id, { code: 'x', message: 'x' }, Date.now(), webhook(id, accountId)),
          second.renders.complete(id, COMPLETED, webhook(id, accountId)),
        ]);
        assert.equal(outcomes.filter(Boolean).length, 1, `one transition of ${id}`);
        assert.equal(await db.count(`webhook_deliveries WHERE render_id = '${id}'`), 1);
      }
    } finally {
      await db.close();
    }
  });

  test('racing idempotency keys: of concurrent begins with one key exactly one starts', async () => {
    const scope = { credentialId: 'key_x', endpoint: 'POST /v3/renders', key: 'race-1' };
    const now = Date.now();
    const begins = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? first : second).idempotency.begin({ ...scope, claim: `c${i}` }, 'h', now, now + 60_000, now - 60_000),
      ),
    );
    assert.deepEqual(begins.map((begin) => begin.state).sort(), [
      'in_progress',
      'in_progress',
      'in_progress',
      'in_progress',
      'in_progress',
      'in_progress',
      'in_progress',
      'started',
    ]);
  });
});

describe('two service instances on one database and one data folder', { skip }, () => {
  let location: TestLocation;
  let services: Service[];
  const started: string[] = [];
  const received: string[] = [];
  let receiver: ReturnType<typeof createServer>;
  let receiverUrl: string;
  before(async () => {
    location = await newTestLocation('fx-pg-two-');
    receiver = createServer((request, response) => {
      received.push(String(request.headers['webhook-id']));
      request.resume().on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const settings = (name: string) => ({
      ...location,
      render: createFfmpegRenderer({ onStart: (options) => started.push(`${name} ${options.outputPath}`) }),
      allowInsecureCallbacks: true,
      allowPrivateNetworkUrls: true,
      webhooks: { pollMs: 50, retryBaseMs: 100 },
    });
    services = [await createService(settings('a')), await createService(settings('b'))];
  });
  after(async () => {
    await Promise.all(services.map((service) => service.close()));
    receiver.close();
    await removeTestLocation(location);
  });

  test('both enqueue the same renders at once: each renders once, completes once, its webhook sent once', async () => {
    const [a, b] = services as [Service, Service];
    const { key } = await a.context.apiKeys.create((await a.context.accounts.ensure('two', Date.now())).id);
    const { url } = await a.listen(0);
    const upload = await fetch(
      `${url}/v3/assets`,
      zipInit(projectZip({ 'index.html': compositionHtml({ duration: 0.2 }) }), { authorization: `Bearer ${key}` }),
    );
    const { asset_id } = (await upload.json()) as { asset_id: string };
    const accountId = (await a.context.accounts.findByName('two'))!.id;
    const ids = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const id = newId(IdPrefix.render);
        await a.context.renders.create({
          id,
          accountId,
          credentialId: 'key_x',
          request: { ...RENDER_REQUEST, asset_id, fps: 5, callback_url: receiverUrl },
          warnings: [],
          projectKey: StorageKey.asset(asset_id),
          createdAt: Date.now(),
        });
        return id;
      }),
    );
    // What a shared queue without locking would do: both processes take every render.
    for (const id of ids) await Promise.all([a.context.queue.enqueue(id), b.context.queue.enqueue(id)]);
    const finished = await waitFor(
      async () => {
        const renders = await Promise.all(ids.map((id) => b.context.renders.find(id)));
        return renders.every((render) => render?.status === 'completed') ? renders : undefined;
      },
      30_000,
      'every render to complete',
    );
    assert.deepEqual(
      finished.map((render) => render!.attempts),
      ids.map(() => 1),
    );
    assert.equal(started.length, ids.length, started.join('\n'));
    const db = await openTestDb(location);
    try {
      assert.equal(await db.count('webhook_deliveries'), ids.length);
    } finally {
      await db.close();
    }
    // Both dispatchers poll the outbox; each delivery is taken by one of them (without the hold, 11 of 8 were seen).
    await waitFor(() => (new Set(received).size === ids.length ? true : undefined), 10_000, 'every webhook');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(received.length, ids.length, 'no webhook sent twice');
  });
});

describe('dropped connections', { skip }, () => {
  let location: TestLocation;
  let stores: Stores;
  let admin: pg.Client;
  let accountId: string;
  before(async () => {
    location = await newTestLocation('fx-pg-drop-');
    stores = await openStores(location);
    accountId = (await stores.accounts.ensure('drop', Date.now())).id;
    admin = new pg.Client({ connectionString: location.databaseUrl });
    await admin.connect();
  });
  after(async () => {
    await admin.end();
    await stores.close();
    await removeTestLocation(location);
  });

  test('a connection killed between the state change and its webhook leaves neither written; the transition is retried', async () => {
    const id = await newRender(stores, accountId);
    await stores.renders.claim(id, Date.now());
    // Hold the first webhook insert, which runs after the render's UPDATE in the same transaction, then kill it
    // there. The sequence is not rolled back: the retry's insert is not held.
    await admin.query(`CREATE SEQUENCE hold_once`);
    await admin.query(`CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF nextval('hold_once') = 1 THEN PERFORM pg_sleep(30); END IF; RETURN NEW; END $$`);
    await admin.query('CREATE TRIGGER hold BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION hold()');
    try {
      const completing = stores.renders.complete(id, COMPLETED, webhook(id, accountId));
      let pid: number | undefined;
      for (let tries = 0; pid === undefined && tries < 200; tries++) {
        const { rows } = await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE query LIKE 'INSERT INTO webhook_deliveries%' AND state = 'active'`,
        );
        pid = rows[0]?.pid;
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.ok(pid, 'the transaction reached the webhook insert');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // Applied by the retry: the killed transaction's UPDATE did not commit, or the conditional retry would not.
      assert.equal(await completing, true);
    } finally {
      await admin.query('DROP TRIGGER hold ON webhook_deliveries');
      await admin.query('DROP FUNCTION hold()');
      await admin.query('DROP SEQUENCE hold_once');
    }
    const render = await stores.renders.find(id);
    assert.deepEqual([render?.status, render?.videoKey], ['completed', COMPLETED.videoKey]);
    // The killed transaction's webhook did not commit either: one row, the retry's.
    const { rows } = await admin.query('SELECT 1 FROM webhook_deliveries WHERE render_id = $1', [id]);
    assert.equal(rows.length, 1);
  });

  describe('a COMMIT whose connection is lost', () => {
    let proxy: TcpProxy;
    let pool: PgPool;
    before(async () => {
      await admin.query('CREATE TABLE commit_probe (id TEXT PRIMARY KEY)');
      const url = new URL(location.databaseUrl!);
      proxy = await startTcpProxy(Number(url.port), url.hostname);
      url.port = String(proxy.port);
      pool = await openPostgres(url.href);
    });
    after(async () => {
      await pool.end();
      await proxy.close();
    });

    /** Cuts the connection that inserts `id` at its COMMIT, `when`: before the server gets it or after. */
    const cutAtCommit = (id: string, when: 'cut-before' | 'cut-after') => {
      const inserting = new WeakSet<object>();
      proxy.intercept((chunk, connection) => {
        if (chunk.includes(id)) inserting.add(connection);
        if (!inserting.has(connection) || !chunk.includes('COMMIT')) return 'pass';
        proxy.intercept(undefined);
        return when;
      });
    };
    const insert = (id: string) =>
      transaction(pool, async (client) => {
        await client.query('INSERT INTO commit_probe (id) VALUES ($1)', [id]);
        return id;
      });
    const stored = async (id: string) =>
      (await admin.query('SELECT 1 FROM commit_probe WHERE id = $1', [id])).rows.length;

    test('its answer lost after the server committed: the transaction returns, as it landed', async () => {
      const cuts = proxy.cutCount;
      cutAtCommit('landed-1', 'cut-after');
      assert.equal(await insert('landed-1'), 'landed-1');
      assert.equal(proxy.cutCount, cuts + 1, 'the connection was not cut');
      assert.equal(await stored('landed-1'), 1);
    });

    test('lost before the server read it: the transaction fails as lost, and nothing landed', async () => {
      const cuts = proxy.cutCount;
      cutAtCommit('lost-1', 'cut-before');
      await assert.rejects(insert('lost-1'), (error) => isConnectionLost(error));
      assert.equal(proxy.cutCount, cuts + 1);
      assert.equal(await stored('lost-1'), 0);
      // Settled, not left open on the server: the same id goes in now.
      assert.equal(await insert('lost-1'), 'lost-1');
    });

    test('a transaction the server does not know is refused, not guessed: outcomeOf throws', async () => {
      const { rows } = await admin.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
      await assert.rejects(outcomeOf(pool, String(BigInt(rows[0]!.xid) + 1_000_000n)), /future/);
    });
  });

  test('only a lost connection is retried, a refused statement is not', async () => {
    const lost = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    let calls = 0;
    assert.equal(
      await retryOnConnectionLoss(async () => {
        if (++calls < 3) throw calls === 1 ? lost : new Error('Connection terminated unexpectedly');
        return 'done';
      }),
      'done',
    );
    assert.equal(calls, 3);
    const refused = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    calls = 0;
    await assert.rejects(
      retryOnConnectionLoss(async () => {
        calls++;
        throw refused;
      }),
      refused,
    );
    assert.equal(calls, 1);
    for (const code of ['08006', '57P03', 'ECONNRESET', 'ECONNREFUSED']) assert.ok(isConnectionLost({ code }), code);
    for (const code of ['23505', '40001', '42P01', undefined]) assert.ok(!isConnectionLost({ code }), String(code));
  });

  test('a database restart: the pool reconnects, idle connections lost are logged, not thrown', async () => {
    const cluster = await sharedPostgresCluster();
    const logged: string[] = [];
    const own = await openStores({ ...location, log: (message) => logged.push(message) });
    try {
      const id = await newRender(own, accountId);
      await admin.end();
      await cluster.restart();
      admin = new pg.Client({ connectionString: location.databaseUrl });
      await admin.connect();
      // The idle connection died with the server: dropped from the pool and logged (unhandled, it would crash the
      // process); the next statement gets a new one.
      assert.deepEqual(logged, ['database connection lost']);
      assert.equal((await own.renders.find(id))?.id, id);
    } finally {
      await own.close();
    }
  });
});

describe('migrations', { skip }, () => {
  let location: TestLocation;
  before(async () => {
    location = await newTestLocation('fx-pg-migrate-');
  });
  after(() => removeTestLocation(location));

  test('two processes migrating a new database at once: one applies every version, the other nothing', async () => {
    const pools = [1, 2].map(() => new pg.Pool({ connectionString: location.databaseUrl }));
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pool)));
      const versions = MIGRATIONS.map((migration) => migration.version);
      assert.deepEqual(applied.map((list) => list.length).sort(), [0, versions.length]);
      assert.deepEqual(applied.flat(), versions);
      // And once more: a no-op.
      assert.deepEqual(await migrate(pools[0]!), []);
      const { rows } = await pools[0]!.query('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(
        rows.map((row) => row.version),
        versions,
      );
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  test('a failing migration leaves no trace: neither its tables nor its version', async () => {
    const pool = new pg.Pool({ connectionString: location.databaseUrl });
    try {
      const broken = { version: 1_000, name: 'broken', sql: 'CREATE TABLE half_done (id INT); SELECT 1/0;' };
      await assert.rejects(migrate(pool, [...MIGRATIONS, broken]), { code: '22012' });
      const { rows } = await pool.query(
        `SELECT (SELECT COUNT(*) FROM schema_migrations WHERE version = 1000)::int AS recorded,
                to_regclass('half_done') IS NOT NULL AS table_exists`,
      );
      assert.deepEqual(rows[0], { recorded: 0, table_exists: false });
    } finally {
      await pool.end();
    }
  });

  test('a database migrated by a newer service is refused with database_schema_newer', async () => {
    const pool = new pg.Pool({ connectionString: location.databaseUrl });
    try {
      await pool.query(`INSERT INTO schema_migrations (version, name) VALUES (999, 'from the future')`);
      await assert.rejects(openPostgres(location.databaseUrl!), { code: 'database_schema_newer' });
    } finally {
      await pool.query('DELETE FROM schema_migrations WHERE version = 999');
      await pool.end();
    }
  });

  test('a databaseUrl that is not postgres:// is refused with database_url_invalid', async () => {
    for (const url of ['mysql://localhost/fx', 'not a url', 'file:///tmp/service.db'])
      await assert.rejects(openPostgres(url), { code: 'database_url_invalid' });
  });
});

describe('the throwaway cluster', { skip }, () => {
  test('runs as a non-root user and leaves nothing behind once stopped', async () => {
    const cluster = await startPostgresCluster();
    const owner = statSync(`${cluster.folder}/data`).uid;
    if (process.getuid?.() === 0) assert.notEqual(owner, 0);
    const client = new pg.Client({ connectionString: await cluster.createDatabase() });
    await client.connect();
    assert.equal((await client.query('SELECT current_user AS user')).rows[0].user, 'fx');
    await client.end();
    await cluster.stop();
    assert.throws(() => statSync(cluster.folder), { code: 'ENOENT' });
  });
});
