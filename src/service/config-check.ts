import { FxError } from '../runtime/errors.js';
import type { Issue } from '../runtime/issues.js';
import { TrustedProxies } from './http/client-address.js';
import {
  DEFAULT_LIMITS,
  DEFAULT_METRICS,
  DEFAULT_QUEUE,
  DEFAULT_RETENTION,
  DEFAULT_WEBHOOKS,
  ServiceRole,
  type ResolvedConfig,
} from './config.js';

/** What `createService` throws for settings given in code that cannot work; the problems are its `issues`. */
export const ServiceConfigErrorCode = { invalid: 'service_config_invalid' } as const;
export type ServiceConfigErrorCode = (typeof ServiceConfigErrorCode)[keyof typeof ServiceConfigErrorCode];

/** One problem of a setting; `path` names it (`['queue', 'leaseSeconds']`). */
export const ConfigIssueCode = {
  /** Not of the expected kind: a string for a number, a number for a function… */
  typeMismatch: 'config_type_mismatch',
  /** A number that is not a whole number where one is needed, or outside its bounds. */
  outOfRange: 'config_out_of_range',
  /** A key `limits`, `webhooks`, `queue` or `retention` does not have (a typo would otherwise be ignored). */
  unknownKey: 'config_key_unknown',
  /** Not an http(s) origin (`publicBaseUrl`), not one of the allowed names (`role`), or a variable's text not of its type. */
  valueInvalid: 'config_value_invalid',
} as const;
export type ConfigIssueCode = (typeof ConfigIssueCode)[keyof typeof ConfigIssueCode];

/** Node's timers hold at most 2^31 - 1 ms; a longer delay fires at once (with a warning). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** pg-boss refuses a job expiry or maintenance interval of 24 hours or more. */
const PG_BOSS_MAX_SECONDS = 24 * 3600 - 1;
/** pg-boss polls at most every half second. */
const PG_BOSS_MIN_POLL_SECONDS = 0.5;
/** What the CLI's `--concurrency` allows. */
const MAX_CONCURRENCY = 64;

interface Bound {
  readonly min: number;
  readonly max: number;
  /** Fractions allowed (seconds of polling); default whole numbers only. */
  readonly fraction?: boolean;
}

const whole = (min: number, max = Number.MAX_SAFE_INTEGER): Bound => ({ min, max });

const TOP_LEVEL: Record<
  'concurrency' | 'signedUrlTtlSeconds' | 'maxAttempts' | 'progressIntervalMs' | 'idempotencyTtlSeconds',
  Bound
> = {
  concurrency: whole(1, MAX_CONCURRENCY),
  signedUrlTtlSeconds: whole(1),
  maxAttempts: whole(1, 100),
  progressIntervalMs: whole(0, MAX_TIMER_MS),
  idempotencyTtlSeconds: whole(1),
};

const LIMITS: Record<keyof typeof DEFAULT_LIMITS, Bound> = {
  uploadBytes: whole(1),
  jsonBodyBytes: whole(1),
  variablesBytes: whole(1),
  variablesDepth: whole(1, 1000),
  zipEntries: whole(1),
  zipUncompressedBytes: whole(1),
  zipRatio: { min: 1, max: Number.MAX_SAFE_INTEGER, fraction: true },
  zipRatioMinBytes: whole(0),
  urlPageBytes: whole(1),
  urlFetchTimeoutMs: whole(1, MAX_TIMER_MS),
  maxDurationSeconds: { min: Number.MIN_VALUE, max: Number.MAX_SAFE_INTEGER, fraction: true },
  maxFrames: whole(1),
};

const WEBHOOKS: Record<keyof typeof DEFAULT_WEBHOOKS, Bound> = {
  timeoutMs: whole(1, MAX_TIMER_MS),
  retryBaseMs: whole(1, MAX_TIMER_MS),
  maxDelayMs: whole(1, MAX_TIMER_MS),
  maxAttempts: whole(1, 100),
  pollMs: whole(1, MAX_TIMER_MS),
};

const QUEUE: Record<keyof typeof DEFAULT_QUEUE, Bound> = {
  leaseSeconds: whole(1, PG_BOSS_MAX_SECONDS),
  retryDelaySeconds: whole(0, PG_BOSS_MAX_SECONDS),
  pollingIntervalSeconds: { min: PG_BOSS_MIN_POLL_SECONDS, max: MAX_TIMER_MS / 1000, fraction: true },
  maintenanceIntervalSeconds: whole(1, PG_BOSS_MAX_SECONDS),
  sweepIntervalMs: whole(1, MAX_TIMER_MS),
};

/** A hundred years: a retention in days or hours stays far inside what a timestamp in milliseconds holds. */
const RETENTION: Record<keyof typeof DEFAULT_RETENTION, Bound> = {
  days: whole(1, 36_500),
  deletedHours: whole(0, 876_000),
  sweepIntervalMs: whole(1, MAX_TIMER_MS),
};

const FUNCTIONS = ['render', 'routes', 'now', 'fetch', 'log'] as const;

/**
 * Checks a resolved config as `resolveConfig` made it from code (the environment's settings are checked where they
 * are parsed): every problem at once, as issues of one `service_config_invalid` error, so a bad number fails the
 * start instead of a timer firing at once or a typo being ignored.
 */
export function checkConfig(config: ResolvedConfig, given: { [key: string]: unknown }): void {
  const issues: Issue<ConfigIssueCode>[] = [];
  const problem = (code: ConfigIssueCode, path: string[], message: string) =>
    issues.push({ code, severity: 'error', path, message });
  const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : String(value));

  const number = (path: string[], value: unknown, bound: Bound) => {
    const name = `"${path.join('.')}"`;
    if (typeof value !== 'number')
      return problem(ConfigIssueCode.typeMismatch, path, `${name} must be a number, got ${typeof value}`);
    const kind = bound.fraction ? 'a number' : 'a whole number';
    const range =
      bound.max === Number.MAX_SAFE_INTEGER ? `of at least ${bound.min}` : `from ${bound.min} to ${bound.max}`;
    if (
      !Number.isFinite(value) ||
      (!bound.fraction && !Number.isInteger(value)) ||
      value < bound.min ||
      value > bound.max
    )
      problem(ConfigIssueCode.outOfRange, path, `${name} must be ${kind} ${range}, got ${shown(value)}`);
  };
  const group = (name: string, values: { [key: string]: unknown }, bounds: Record<string, Bound>) => {
    const supplied = given[name];
    if (supplied !== undefined && (typeof supplied !== 'object' || supplied === null || Array.isArray(supplied)))
      return problem(ConfigIssueCode.typeMismatch, [name], `"${name}" must be an object, got ${shown(supplied)}`);
    for (const key of Object.keys(supplied ?? {}))
      if (!Object.hasOwn(bounds, key))
        problem(ConfigIssueCode.unknownKey, [name, key], `"${name}" has no setting "${key}"`);
    for (const [key, bound] of Object.entries(bounds)) number([name, key], values[key], bound);
  };

  if (!Object.values<unknown>(ServiceRole).includes(config.role))
    problem(
      ConfigIssueCode.valueInvalid,
      ['role'],
      `"role" must be one of ${Object.values(ServiceRole).join(', ')}, got ${shown(config.role)}`,
    );
  if (typeof config.dataDir !== 'string' || config.dataDir === '')
    problem(ConfigIssueCode.typeMismatch, ['dataDir'], `"dataDir" must be a folder path, got ${shown(config.dataDir)}`);
  for (const name of FUNCTIONS)
    if (typeof config[name] !== 'function')
      problem(ConfigIssueCode.typeMismatch, [name], `"${name}" must be a function, got ${typeof config[name]}`);
  if (!Array.isArray(config.authenticators))
    problem(
      ConfigIssueCode.typeMismatch,
      ['authenticators'],
      `"authenticators" must be an array, got ${shown(config.authenticators)}`,
    );
  for (const [key, bound] of Object.entries(TOP_LEVEL)) number([key], config[key as keyof typeof TOP_LEVEL], bound);
  group('limits', config.limits as unknown as { [key: string]: unknown }, LIMITS);
  group('webhooks', config.webhooks as unknown as { [key: string]: unknown }, WEBHOOKS);
  group('queue', config.queue as unknown as { [key: string]: unknown }, QUEUE);
  // `days` left undefined keeps the files for ever: only a given one is checked.
  group('retention', { ...config.retention, days: config.retention.days ?? RETENTION.days.min }, RETENTION);
  if (config.webhooks.retryBaseMs > config.webhooks.maxDelayMs)
    problem(
      ConfigIssueCode.outOfRange,
      ['webhooks', 'retryBaseMs'],
      `"webhooks.retryBaseMs" must not exceed "webhooks.maxDelayMs" (${config.webhooks.maxDelayMs}), got ${config.webhooks.retryBaseMs}`,
    );
  const metrics = given.metrics;
  if (metrics !== undefined && (typeof metrics !== 'object' || metrics === null || Array.isArray(metrics)))
    problem(ConfigIssueCode.typeMismatch, ['metrics'], `"metrics" must be an object, got ${shown(metrics)}`);
  else {
    for (const key of Object.keys(metrics ?? {}))
      if (!Object.hasOwn(DEFAULT_METRICS, key))
        problem(ConfigIssueCode.unknownKey, ['metrics', key], `"metrics" has no setting "${key}"`);
    for (const key of ['enabled', 'ownPort', 'processMetrics'] as const)
      if (typeof config.metrics[key] !== 'boolean')
        problem(
          ConfigIssueCode.typeMismatch,
          ['metrics', key],
          `"metrics.${key}" must be a boolean, got ${typeof config.metrics[key]}`,
        );
    const { token } = config.metrics;
    if (token !== undefined && (typeof token !== 'string' || !/^[\x21-\x7e]{16,}$/.test(token)))
      // Never the value: it is a secret.
      problem(
        ConfigIssueCode.valueInvalid,
        ['metrics', 'token'],
        '"metrics.token" must be at least 16 printable characters without spaces',
      );
  }
  const proxies = config.trustedProxies as unknown;
  if (!Array.isArray(proxies) || !proxies.every((entry) => typeof entry === 'string'))
    problem(ConfigIssueCode.typeMismatch, ['trustedProxies'], `"trustedProxies" must be an array of addresses`);
  else
    try {
      new TrustedProxies(proxies);
    } catch (error) {
      problem(
        ConfigIssueCode.valueInvalid,
        ['trustedProxies'],
        `"trustedProxies" must list ${(error as Error).message}`,
      );
    }
  if (config.publicBaseUrl !== undefined && !isHttpBase(config.publicBaseUrl))
    problem(
      ConfigIssueCode.valueInvalid,
      ['publicBaseUrl'],
      `"publicBaseUrl" must be an http(s) URL without query, fragment or credentials, got ${shown(config.publicBaseUrl)}`,
    );

  if (issues.length > 0) throw configInvalid(issues);
}

/** One `service_config_invalid` for every problem found, each an issue. */
export function configInvalid(issues: Issue<ConfigIssueCode>[]): FxError {
  return new FxError(
    ServiceConfigErrorCode.invalid,
    issues.length === 1
      ? issues[0]!.message
      : `${issues.length} settings are invalid: ${issues.map((issue) => issue.message).join('; ')}`,
    { issues },
  );
}

function isHttpBase(text: unknown): boolean {
  const url = typeof text === 'string' ? URL.parse(text) : null;
  return (
    url !== null &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === ''
  );
}
