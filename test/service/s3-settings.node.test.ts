// FX_SERVICE_S3_* read into S3 settings: none set keeps the local disk; anything half-set or malformed stops the
// service at start with `s3_settings_invalid` naming the variable (and never echoing a secret).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isFxError } from '../../src/runtime/errors.js';
import { S3_ENV, S3SettingsErrorCode, s3SettingsFromEnv } from '../../src/service/storage/s3-settings.js';

const FULL = {
  [S3_ENV.endpoint]: 'http://minio.internal:9000',
  [S3_ENV.bucket]: 'fx-renders',
  [S3_ENV.region]: 'eu-central-1',
  [S3_ENV.accessKeyId]: 'AKIDEXAMPLE',
  [S3_ENV.secretAccessKey]: 'wJalrXUtnFEMI/K7MDENG',
  [S3_ENV.forcePathStyle]: '1',
};

test('no FX_SERVICE_S3_* variable (or only empty ones): no S3 settings', () => {
  assert.equal(s3SettingsFromEnv({}), undefined);
  assert.equal(s3SettingsFromEnv({ [S3_ENV.bucket]: '', PATH: '/bin' }), undefined);
});

test('a full set is read as given; a bucket alone uses AWS, us-east-1 and the default credential chain', () => {
  assert.deepEqual(s3SettingsFromEnv(FULL), {
    endpoint: 'http://minio.internal:9000',
    bucket: 'fx-renders',
    region: 'eu-central-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG' },
    forcePathStyle: true,
  });
  assert.deepEqual(s3SettingsFromEnv({ [S3_ENV.bucket]: 'fx-renders' }), {
    bucket: 'fx-renders',
    region: 'us-east-1',
    forcePathStyle: false,
  });
});

const REFUSED: [string, Record<string, string>, string][] = [
  ['no bucket', { [S3_ENV.endpoint]: 'http://minio:9000' }, S3_ENV.bucket],
  ['bucket with capitals', { [S3_ENV.bucket]: 'FX' }, S3_ENV.bucket],
  ['bucket too short', { [S3_ENV.bucket]: 'fx' }, S3_ENV.bucket],
  ['bucket with "..', { [S3_ENV.bucket]: 'fx..renders' }, S3_ENV.bucket],
  ['bucket with a slash', { [S3_ENV.bucket]: 'fx/renders' }, S3_ENV.bucket],
  ['bucket of 64 characters', { [S3_ENV.bucket]: 'a'.repeat(64) }, S3_ENV.bucket],
  ['endpoint without a scheme', { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.endpoint]: 'minio:9000' }, S3_ENV.endpoint],
  ['endpoint with a path', { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.endpoint]: 'http://minio/x' }, S3_ENV.endpoint],
  [
    'endpoint with user info',
    { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.endpoint]: 'http://a:b@minio' },
    S3_ENV.endpoint,
  ],
  ['endpoint of another scheme', { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.endpoint]: 'file:///tmp' }, S3_ENV.endpoint],
  ['region with spaces', { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.region]: 'eu central' }, S3_ENV.region],
  ['path style "yes"', { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.forcePathStyle]: 'yes' }, S3_ENV.forcePathStyle],
  ['key id without secret', { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.accessKeyId]: 'AKID' }, S3_ENV.secretAccessKey],
  ['secret without key id', { [S3_ENV.bucket]: 'fx-renders', [S3_ENV.secretAccessKey]: 's3cr3t' }, S3_ENV.accessKeyId],
];

for (const [what, env, variable] of REFUSED) {
  test(`refused: ${what} → s3_settings_invalid naming ${variable}`, () => {
    assert.throws(
      () => s3SettingsFromEnv(env),
      (error: unknown) =>
        isFxError(error, S3SettingsErrorCode.invalid) &&
        error.message.startsWith(`"${variable}" must be`) &&
        !error.message.includes('s3cr3t'),
    );
  });
}
