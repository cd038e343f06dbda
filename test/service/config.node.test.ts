// `createService` settings given in code: malformed and boundary values are refused at start with
// `service_config_invalid` and one issue per problem (code + path), before anything is opened.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ServiceConfig } from '../../src/service/config.js';
import { ConfigIssueCode, ServiceConfigErrorCode } from '../../src/service/config-check.js';
import { createService } from '../../src/service/service.js';
import type { FxError } from '../../src/runtime/errors.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';

const { outOfRange, typeMismatch, unknownKey, valueInvalid } = ConfigIssueCode;
const TIMER_MAX = 2 ** 31 - 1;

/** Settings, and the issues (code, path) they must give. */
const REFUSED: [string, Record<string, unknown>, [string, string][]][] = [
  ['concurrency 0', { concurrency: 0 }, [[outOfRange, 'concurrency']]],
  ['concurrency 1.5', { concurrency: 1.5 }, [[outOfRange, 'concurrency']]],
  ['concurrency 65', { concurrency: 65 }, [[outOfRange, 'concurrency']]],
  ['concurrency "2"', { concurrency: '2' }, [[typeMismatch, 'concurrency']]],
  ['concurrency NaN', { concurrency: Number.NaN }, [[outOfRange, 'concurrency']]],
  ['maxAttempts 0', { maxAttempts: 0 }, [[outOfRange, 'maxAttempts']]],
  ['signedUrlTtlSeconds -1', { signedUrlTtlSeconds: -1 }, [[outOfRange, 'signedUrlTtlSeconds']]],
  ['progressIntervalMs Infinity', { progressIntervalMs: Infinity }, [[outOfRange, 'progressIntervalMs']]],
  ['idempotencyTtlSeconds 0', { idempotencyTtlSeconds: 0 }, [[outOfRange, 'idempotencyTtlSeconds']]],
  ['an unknown role', { role: 'scheduler' }, [[valueInvalid, 'role']]],
  ['an empty dataDir', { dataDir: '' }, [[typeMismatch, 'dataDir']]],
  ['no render function', { render: 'ffmpeg' }, [[typeMismatch, 'render']]],
  ['authenticators not an array', { authenticators: {} }, [[typeMismatch, 'authenticators']]],
  ['a ftp: publicBaseUrl', { publicBaseUrl: 'ftp://render.example.com' }, [[valueInvalid, 'publicBaseUrl']]],
  ['a publicBaseUrl with a query', { publicBaseUrl: 'https://x.example/?a=1' }, [[valueInvalid, 'publicBaseUrl']]],
  ['a publicBaseUrl that is a number', { publicBaseUrl: 8787 }, [[valueInvalid, 'publicBaseUrl']]],
  ['a limits typo', { limits: { uploadByte: 10 } }, [[unknownKey, 'limits.uploadByte']]],
  ['limits not an object', { limits: 'big' }, [[typeMismatch, 'limits']]],
  ['uploadBytes 0', { limits: { uploadBytes: 0 } }, [[outOfRange, 'limits.uploadBytes']]],
  ['zipRatio 0.5', { limits: { zipRatio: 0.5 } }, [[outOfRange, 'limits.zipRatio']]],
  ['maxDurationSeconds 0', { limits: { maxDurationSeconds: 0 } }, [[outOfRange, 'limits.maxDurationSeconds']]],
  [
    'urlFetchTimeoutMs past the timer limit',
    { limits: { urlFetchTimeoutMs: TIMER_MAX + 1 } },
    [[outOfRange, 'limits.urlFetchTimeoutMs']],
  ],
  ['webhooks.pollMs past the timer limit', { webhooks: { pollMs: TIMER_MAX + 1 } }, [[outOfRange, 'webhooks.pollMs']]],
  ['webhooks.maxAttempts 0', { webhooks: { maxAttempts: 0 } }, [[outOfRange, 'webhooks.maxAttempts']]],
  ['webhooks.timeoutMs null', { webhooks: { timeoutMs: null } }, [[typeMismatch, 'webhooks.timeoutMs']]],
  [
    'retryBaseMs above maxDelayMs',
    { webhooks: { retryBaseMs: 10_000, maxDelayMs: 5_000 } },
    [[outOfRange, 'webhooks.retryBaseMs']],
  ],
  ['a webhooks typo', { webhooks: { pollMS: 10 } }, [[unknownKey, 'webhooks.pollMS']]],
  ['leaseSeconds 0', { queue: { leaseSeconds: 0 } }, [[outOfRange, 'queue.leaseSeconds']]],
  ['leaseSeconds of a day', { queue: { leaseSeconds: 86_400 } }, [[outOfRange, 'queue.leaseSeconds']]],
  [
    'pollingIntervalSeconds 0.4',
    { queue: { pollingIntervalSeconds: 0.4 } },
    [[outOfRange, 'queue.pollingIntervalSeconds']],
  ],
  ['retryDelaySeconds -1', { queue: { retryDelaySeconds: -1 } }, [[outOfRange, 'queue.retryDelaySeconds']]],
  ['retryDelaySeconds 1.5', { queue: { retryDelaySeconds: 1.5 } }, [[outOfRange, 'queue.retryDelaySeconds']]],
  ['sweepIntervalMs 0', { queue: { sweepIntervalMs: 0 } }, [[outOfRange, 'queue.sweepIntervalMs']]],
  ['a metrics typo', { metrics: { enable: true } }, [[unknownKey, 'metrics.enable']]],
  ['metrics.enabled not a boolean', { metrics: { enabled: 'yes' } }, [[typeMismatch, 'metrics.enabled']]],
  [
    'a metrics token too short to keep guessers out',
    { metrics: { token: 'short' } },
    [[valueInvalid, 'metrics.token']],
  ],
  [
    'a metrics token with a space',
    { metrics: { token: 'a token with spaces in it' } },
    [[valueInvalid, 'metrics.token']],
  ],
  ['retention of 0 days', { retention: { days: 0 } }, [[outOfRange, 'retention.days']]],
  ['retention of 1.5 days', { retention: { days: 1.5 } }, [[outOfRange, 'retention.days']]],
  ['a deleted retention of -1 hour', { retention: { deletedHours: -1 } }, [[outOfRange, 'retention.deletedHours']]],
  ['a retention typo', { retention: { day: 30 } }, [[unknownKey, 'retention.day']]],
  ['a trusted proxy that is no address', { trustedProxies: ['proxy.local'] }, [[valueInvalid, 'trustedProxies']]],
  ['trusted proxies not an array', { trustedProxies: '10.0.0.0/8' }, [[typeMismatch, 'trustedProxies']]],
  [
    'several problems at once',
    { concurrency: 0, queue: { leaseSeconds: -5, lease: 3 } },
    [
      [outOfRange, 'concurrency'],
      [unknownKey, 'queue.lease'],
      [outOfRange, 'queue.leaseSeconds'],
    ],
  ],
];

/** Boundary values that must start. */
const ACCEPTED: [string, Partial<ServiceConfig>][] = [
  ['concurrency 1 and 64', { concurrency: 64 }],
  ['progressIntervalMs 0', { progressIntervalMs: 0 }],
  ['zipRatioMinBytes 0 and a fractional zipRatio', { limits: { zipRatioMinBytes: 0, zipRatio: 1.5 } }],
  [
    "timers at Node's limit",
    { webhooks: { pollMs: TIMER_MAX, maxDelayMs: TIMER_MAX }, queue: { sweepIntervalMs: TIMER_MAX } },
  ],
  ['pg-boss bounds', { queue: { leaseSeconds: 86_399, pollingIntervalSeconds: 0.5, retryDelaySeconds: 0 } }],
  ['retention bounds', { retention: { days: 36_500, deletedHours: 0, sweepIntervalMs: TIMER_MAX } }],
  ['retention days left unset (kept for ever)', { retention: { days: undefined, deletedHours: 876_000 } }],
  ['a publicBaseUrl with a path', { publicBaseUrl: 'https://render.example.com/fx/' }],
];

describe('createService settings given in code', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fx-config-test-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  const config = (overrides: Record<string, unknown>) =>
    ({ dataDir, render: createFfmpegRenderer(), ...overrides }) as unknown as ServiceConfig;

  for (const [name, overrides, expected] of REFUSED) {
    test(`refuses ${name}`, async () => {
      const folder = join(dataDir, 'refused');
      await assert.rejects(createService(config({ dataDir: folder, ...overrides })), (error: FxError) => {
        assert.equal(error.code, ServiceConfigErrorCode.invalid);
        assert.deepEqual(
          error.issues.map((issue) => [issue.code, issue.path.join('.')]).sort(),
          [...expected].sort(),
          error.message,
        );
        return true;
      });
      // Nothing was opened or created.
      assert.deepEqual(await readdir(dataDir).catch(() => []), []);
    });
  }

  for (const [name, overrides] of ACCEPTED) {
    test(`accepts ${name}`, async () => {
      const service = await createService(config({ ...overrides, dataDir: join(dataDir, 'accepted') }));
      await service.close();
      await rm(join(dataDir, 'accepted'), { recursive: true, force: true });
    });
  }

  test('messages name the setting and what came', async () => {
    await assert.rejects(createService(config({ queue: { leaseSeconds: 0 } })), {
      message: '"queue.leaseSeconds" must be a whole number from 1 to 86399, got 0',
    });
  });
});
