import { FxError } from '../../runtime/errors.js';

/** Where `S3BlobStorage` keeps files: any S3-compatible service (AWS S3, MinIO, Cloudflare R2, Ceph, …). */
export interface S3Settings {
  /** The service's origin, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://minio:9000`; AWS when absent. */
  readonly endpoint?: string;
  readonly region: string;
  readonly bucket: string;
  /** A key pair; absent, the AWS SDK's default chain applies (`AWS_*` variables, instance or task roles, …). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most self-hosted servers). */
  readonly forcePathStyle: boolean;
}

/** The environment variables of the S3 backend, said once. */
export const S3_ENV = {
  endpoint: 'FX_SERVICE_S3_ENDPOINT',
  bucket: 'FX_SERVICE_S3_BUCKET',
  region: 'FX_SERVICE_S3_REGION',
  accessKeyId: 'FX_SERVICE_S3_ACCESS_KEY_ID',
  secretAccessKey: 'FX_SERVICE_S3_SECRET_ACCESS_KEY',
  forcePathStyle: 'FX_SERVICE_S3_FORCE_PATH_STYLE',
} as const;

export const S3SettingsErrorCode = { invalid: 's3_settings_invalid' } as const;

const DEFAULT_REGION = 'us-east-1';
/** S3's bucket naming rule (lowercase letters, digits, dots and hyphens; 3–63 characters; no `..`). */
const BUCKET_NAME = /^(?!.*\.\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION_NAME = /^[a-z0-9-]{1,32}$/;
const FLAGS: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };

/**
 * The S3 backend's settings from `FX_SERVICE_S3_*` variables, or undefined when none is set (files stay on the
 * local disk). Throws `s3_settings_invalid` naming the variable at fault: a half-configured bucket must stop the
 * service at start, not fail its first upload.
 */
export function s3SettingsFromEnv(env: Readonly<Record<string, string | undefined>>): S3Settings | undefined {
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  if (Object.values(S3_ENV).every((name) => value(name) === undefined)) return undefined;
  const bucket = value(S3_ENV.bucket);
  if (bucket === undefined || !BUCKET_NAME.test(bucket))
    throw invalid(S3_ENV.bucket, 'an S3 bucket name (3-63 of a-z, 0-9, "." and "-")', bucket);
  const region = value(S3_ENV.region) ?? DEFAULT_REGION;
  if (!REGION_NAME.test(region)) throw invalid(S3_ENV.region, 'a region name such as "eu-central-1"', region);
  const endpoint = value(S3_ENV.endpoint);
  if (endpoint !== undefined && !isOrigin(endpoint))
    throw invalid(S3_ENV.endpoint, 'an http: or https: origin such as "https://s3.example.com"', endpoint);
  const accessKeyId = value(S3_ENV.accessKeyId);
  const secretAccessKey = value(S3_ENV.secretAccessKey);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    const missing = accessKeyId === undefined ? S3_ENV.accessKeyId : S3_ENV.secretAccessKey;
    throw invalid(missing, 'set together with its pair, or both unset (the AWS default chain)', undefined);
  }
  const flag = value(S3_ENV.forcePathStyle) ?? '0';
  const forcePathStyle = FLAGS[flag];
  if (forcePathStyle === undefined) throw invalid(S3_ENV.forcePathStyle, '"1", "0", "true" or "false"', flag);
  return {
    ...(endpoint === undefined ? {} : { endpoint: new URL(endpoint).origin }),
    region,
    bucket,
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    forcePathStyle,
  };
}

function isOrigin(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === ''
  );
}

function invalid(name: string, expected: string, got: string | undefined): FxError {
  // Secrets never reach a message: only the names of the credential variables are.
  const shown = got === undefined ? 'nothing' : JSON.stringify(got.slice(0, 100));
  return new FxError(S3SettingsErrorCode.invalid, `"${name}" must be ${expected}, got ${shown}`);
}
