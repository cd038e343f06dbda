// The service's settings table: what main.ts reads (defaults, every problem at once naming its variable, secrets
// never echoed), what check-config prints (secrets hidden), and docs/service.md's copy of the table.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isFxError } from '../../../src/runtime/errors.js';
import { ConfigIssueCode, ServiceConfigErrorCode } from '../../../src/service/config-check.js';
import { ServiceRole } from '../../../src/service/config.js';
import { CLIENT_SETTINGS } from '../../../src/cli/client-settings.js';
import { effectiveSettingLines, settingsHelp, settingsMarkdown } from '../../../src/service/settings/describe.js';
import { withSettingsSection } from '../../../src/service/settings/docs-section.js';
import { readServiceSettings } from '../../../src/service/settings/read.js';
import { SERVICE_SETTINGS } from '../../../src/service/settings/table.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The issues `readServiceSettings(env)` throws, as `variable: message`. */
function problems(env: Record<string, string>): string[] {
  try {
    readServiceSettings(env);
  } catch (error) {
    assert.ok(isFxError(error) && error.code === ServiceConfigErrorCode.invalid, String(error));
    const { issues } = error;
    for (const issue of issues) assert.equal(issue.code, ConfigIssueCode.valueInvalid);
    return issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  }
  return [];
}

test('with nothing set, every setting is its default', () => {
  const { values, s3, chunks, sources } = readServiceSettings({});
  assert.equal(values.role, ServiceRole.embedded);
  assert.equal(values.port, 8787);
  assert.equal(values.host, '127.0.0.1');
  assert.equal(values.dataDir, '.fx/service');
  assert.equal(values.databaseUrl, undefined);
  assert.equal(values.concurrency, 1);
  assert.equal(values.allowInsecureCallbacks, false);
  assert.deepEqual(values.oauthBrowserRedirectUris, []);
  assert.equal(s3, undefined);
  assert.equal(chunks.workers, 1);
  assert.ok(Object.values(sources).every((source) => source === 'default'));
});

test('an empty variable is unset, as a shell leaves it', () => {
  assert.equal(readServiceSettings({ FX_SERVICE_PORT: '', FX_SERVICE_DATABASE_URL: '' }).values.port, 8787);
});

test('set values are read by their type', () => {
  const { values, s3, chunks, sources } = readServiceSettings({
    FX_SERVICE_ROLE: 'worker',
    FX_SERVICE_PORT: '0',
    FX_SERVICE_CONCURRENCY: '4',
    FX_SERVICE_PUBLIC_URL: 'https://render.example.com/',
    FX_SERVICE_ALLOW_INSECURE_CALLBACKS: 'true',
    FX_SERVICE_OAUTH_BROWSER_REDIRECT_URIS: ' https://a.example/cb , ,https://b.example/cb',
    FX_SERVICE_DATABASE_URL: 'postgres://fx:pw@db:5432/fx',
    FX_SERVICE_S3_BUCKET: 'fx-renders',
    FX_SERVICE_CHUNK_WORKERS: '3',
  });
  assert.equal(values.role, ServiceRole.worker);
  assert.equal(values.port, 0);
  assert.equal(values.concurrency, 4);
  assert.equal(values.publicUrl, 'https://render.example.com');
  assert.equal(values.allowInsecureCallbacks, true);
  assert.deepEqual(values.oauthBrowserRedirectUris, ['https://a.example/cb', 'https://b.example/cb']);
  assert.equal(s3?.bucket, 'fx-renders');
  assert.equal(chunks.workers, 3);
  assert.equal(sources.port, 'environment');
  assert.equal(sources.host, 'default');
});

test('every bad value is reported at once, each naming its variable', () => {
  assert.deepEqual(
    problems({
      FX_SERVICE_ROLE: 'everything',
      FX_SERVICE_PORT: '80a',
      FX_SERVICE_CONCURRENCY: '65',
      FX_SERVICE_PUBLIC_URL: 'ftp://example.com',
      FX_SERVICE_ALLOW_INSECURE_CALLBACKS: 'yes',
      FX_SERVICE_DATABASE_URL: 'mysql://db/fx',
      FX_SERVICE_S3_REGION: 'EU',
      FX_SERVICE_CHUNK_WORKERS: '0',
    }),
    [
      'FX_SERVICE_ROLE: "FX_SERVICE_ROLE" must be one of embedded, api, worker, got "everything"',
      'FX_SERVICE_DATABASE_URL: "FX_SERVICE_DATABASE_URL" must be a postgres://user:password@host:port/database URL, got a value',
      'FX_SERVICE_PORT: "FX_SERVICE_PORT" must be an integer from 0 to 65535, got "80a"',
      'FX_SERVICE_PUBLIC_URL: "FX_SERVICE_PUBLIC_URL" must be an http: or https: URL without credentials, query or fragment, got "ftp://example.com"',
      'FX_SERVICE_CONCURRENCY: "FX_SERVICE_CONCURRENCY" must be an integer from 1 to 64, got "65"',
      'FX_SERVICE_ALLOW_INSECURE_CALLBACKS: "FX_SERVICE_ALLOW_INSECURE_CALLBACKS" must be "1", "0", "true" or "false", got "yes"',
      'FX_SERVICE_S3_BUCKET: "FX_SERVICE_S3_BUCKET" must be an S3 bucket name (3-63 of a-z, 0-9, "." and "-"), got nothing',
      'FX_SERVICE_CHUNK_WORKERS: "FX_SERVICE_CHUNK_WORKERS" must be an integer from 1 to 1024, got "0"',
    ],
  );
});

test('trusted proxies: addresses and CIDR ranges, anything else refused', () => {
  assert.deepEqual(readServiceSettings({ FX_SERVICE_TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).values.trustedProxies, [
    '10.0.0.0/8',
    '::1',
  ]);
  assert.deepEqual(problems({ FX_SERVICE_TRUSTED_PROXIES: '10.0.0.0/8,proxy.local' }), [
    'FX_SERVICE_TRUSTED_PROXIES: "FX_SERVICE_TRUSTED_PROXIES" must be IP addresses or CIDR ranges such as 10.0.0.0/8, and "proxy.local" is neither, got "10.0.0.0/8,proxy.local"',
  ]);
});

test('hostile and boundary values: huge, negative, fractional, padded, a port at its bounds', () => {
  for (const port of ['-1', '65536', '1.5', ' 80', '0x50', '9'.repeat(400)])
    assert.equal(problems({ FX_SERVICE_PORT: port }).length, 1, port);
  assert.equal(readServiceSettings({ FX_SERVICE_PORT: '65535' }).values.port, 65_535);
  // A long value is shown cut, never whole.
  assert.ok(problems({ FX_SERVICE_PORT: '9'.repeat(400) })[0]!.length < 200);
});

test("a secret's value never appears in an error, nor in what check-config prints", () => {
  const secret = 's3cr3t-value-that-must-not-show';
  const messages = problems({
    FX_SERVICE_DATABASE_URL: `mysql://fx:${secret}@db/fx`,
    FX_SERVICE_S3_BUCKET: 'fx-renders',
    FX_SERVICE_S3_SECRET_ACCESS_KEY: secret,
  });
  assert.ok(messages.length > 0);
  assert.ok(
    messages.every((message) => !message.includes(secret)),
    messages.join('\n'),
  );
  const read = readServiceSettings({
    FX_SERVICE_DATABASE_URL: `postgres://fx:${secret}@db:5432/fx`,
    FX_SERVICE_S3_BUCKET: 'fx-renders',
    FX_SERVICE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    FX_SERVICE_S3_SECRET_ACCESS_KEY: secret,
  });
  const printed = effectiveSettingLines(read, ServiceRole.embedded).join('\n');
  assert.ok(!printed.includes(secret), printed);
  assert.match(printed, /FX_SERVICE_DATABASE_URL +postgres:\/\/fx:\*\*\*@db:5432\/fx/);
  assert.match(printed, /FX_SERVICE_S3_SECRET_ACCESS_KEY +\(set, hidden\)/);
  assert.match(printed, /FX_SERVICE_PORT +8787 +\(default\)/);
});

test("each role's help and check-config list the settings it reads, and only those", () => {
  for (const role of Object.values(ServiceRole)) {
    const help = settingsHelp(role).join('\n');
    const printed = effectiveSettingLines(readServiceSettings({}), role).join('\n');
    for (const setting of Object.values(SERVICE_SETTINGS)) {
      const reads = (setting.roles as readonly string[]).includes(role);
      assert.equal(help.includes(setting.env), reads, `${role} help, ${setting.env}`);
      assert.equal(printed.includes(setting.env), reads, `${role} check-config, ${setting.env}`);
    }
  }
});

test('every FX_SERVICE_ and CLOUD_ variable the source names is in the tables', () => {
  const named = new Set<string>();
  for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }))
    if (file.endsWith('.ts'))
      for (const [name] of readFileSync(join(ROOT, 'src', file), 'utf8').matchAll(
        /\b(?:FX_SERVICE|CLOUD_API|RENDER_API)_[A-Z0-9_]*[A-Z0-9]\b(?!\*)/g,
      ))
        named.add(name);
  const inTable = new Set(
    [...Object.values(SERVICE_SETTINGS), ...Object.values(CLIENT_SETTINGS)].map((setting) => setting.env),
  );
  assert.deepEqual(
    [...named].filter((name) => !inTable.has(name)),
    [],
  );
});

test("docs/service.md's settings table is the table's (npm run docs:settings writes it)", () => {
  const page = readFileSync(join(ROOT, 'docs', 'service.md'), 'utf8');
  assert.equal(page, withSettingsSection(page, settingsMarkdown(CLIENT_SETTINGS)), 'run `npm run docs:settings`');
});
