/**
 * Starts a real service on 127.0.0.1 (random port, temp folder, the test database and storage: helpers/database.ts) with the
 * FFmpeg test renderer.
 */
import type { ServiceConfig } from '../../../src/service/config.js';
import { createService, type Service } from '../../../src/service/service.js';
import { newTestLocation, openTestDb, removeTestLocation, type TestLocation } from './database.js';
import { createFfmpegRenderer } from './ffmpeg-renderer.js';
import { storedAssetEntries, storedKeys, type StoredKey } from './storage.js';

export interface TestService {
  readonly service: Service;
  readonly url: string;
  readonly dataDir: string;
  readonly location: TestLocation;
  /** An API key of the account "test". */
  readonly key: string;
  readonly accountId: string;
  /** `fetch` against the service with the key (unless `headers.authorization` is given). */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** Rows of a table, read through a separate connection. */
  count(table: string): Promise<number>;
  /** Rows of a query (`?` placeholders), read through a separate connection. */
  rows(sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  /** The stored assets and anything half-written of an upload (helpers/storage.ts). */
  storedAssetEntries(): Promise<string[]>;
  /** Every object stored under a key prefix, whether readers see it or not. */
  storedKeys(prefix: string): Promise<StoredKey[]>;
  /** A stored file's bytes, through the service's storage. */
  readStored(key: string): Promise<string | undefined>;
  /** A second API key, of another account. */
  newKey(account: string): Promise<string>;
  close(): Promise<void>;
}

/** `overrides` may be a function of the test's location (e.g. to reach its database through a proxy). */
export async function startTestService(
  overrides: Partial<ServiceConfig> | ((location: TestLocation) => Partial<ServiceConfig>) = {},
): Promise<TestService> {
  const location = await newTestLocation();
  const { dataDir } = location;
  const service = await createService({
    ...location,
    render: createFfmpegRenderer(),
    concurrency: 2,
    allowInsecureCallbacks: true,
    allowPrivateNetworkUrls: true,
    progressIntervalMs: 20,
    webhooks: { pollMs: 50, retryBaseMs: 100, timeoutMs: 2_000 },
    ...(typeof overrides === 'function' ? overrides(location) : overrides),
  });
  const { url } = await service.listen(0);
  const newKey = async (name: string) => {
    const account = await service.context.accounts.ensure(name, Date.now());
    return (await service.context.apiKeys.create(account.id)).key;
  };
  const key = await newKey('test');
  const accountId = (await service.context.accounts.findByName('test'))!.id;
  const reader = await openTestDb(location);
  return {
    service,
    url,
    dataDir,
    location,
    key,
    accountId,
    newKey,
    api: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${key}`);
      return fetch(`${url}${path}`, { ...init, headers });
    },
    count: (table) => reader.count(table),
    rows: (sql, ...params) => reader.rows(sql, ...params),
    storedAssetEntries: () => storedAssetEntries(dataDir, location.s3),
    storedKeys: (prefix) => storedKeys(dataDir, location.s3, prefix),
    readStored: async (key) => {
      const bytes = await service.context.storage.read(key);
      return bytes && new TextDecoder().decode(bytes);
    },
    close: async () => {
      await reader.close();
      await service.close();
      await removeTestLocation(location);
    },
  };
}

export const jsonInit = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export const zipInit = (zip: Uint8Array, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/zip', ...headers },
  body: zip as Uint8Array<ArrayBuffer>,
});

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface RenderJson {
  render_id: string;
  status: string;
  [field: string]: unknown;
}

/** Polls a render until it is `completed` or `failed`. */
export function waitForFinished(test: TestService, renderId: string, timeoutMs = 20_000): Promise<RenderJson> {
  return waitFor(
    async () => {
      const render = (await (await test.api(`/v3/renders/${renderId}`)).json()) as RenderJson;
      return render.status === 'completed' || render.status === 'failed' ? render : undefined;
    },
    timeoutMs,
    `render ${renderId} to finish`,
  );
}

/** A composition entry with declared variables, size and duration. */
export function compositionHtml(
  options: { variables?: unknown[]; width?: number; height?: number; duration?: number; extra?: string } = {},
): string {
  const declarations = JSON.stringify(options.variables ?? []).replaceAll("'", '&#39;');
  return `<!doctype html><html data-composition-variables='${declarations}'><body>
  <div data-composition-id="main" data-width="${options.width ?? 1920}" data-height="${options.height ?? 1080}" data-duration="${options.duration ?? 0.5}" ${options.extra ?? ''}>
    <h1 data-var-text="title">Hello</h1>
  </div></body></html>`;
}

export const TITLE_DECLARATIONS = [
  { id: 'title', type: 'string', label: 'Title', default: 'Hello', maxLength: 20 },
  { id: 'speed', type: 'number', label: 'Speed', default: 1, min: 0, max: 10 },
  {
    id: 'theme',
    type: 'enum',
    label: 'Theme',
    default: 'dark',
    options: [
      { value: 'dark', label: 'Dark' },
      { value: 'light', label: 'Light' },
    ],
  },
];

/** Uploads a project and returns its asset id. */
export async function uploadProject(test: TestService, files: Record<string, string>, query = ''): Promise<string> {
  const { projectZip } = await import('./zip-builder.js');
  const response = await test.api(`/v3/assets${query}`, zipInit(projectZip(files)));
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { asset_id: string }).asset_id;
}
