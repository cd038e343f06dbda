import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../wire/constants.js';

/**
 * The Standard Webhooks signature: `v1,` + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")), the key being
 * the base64-decoded part of `whsec_…`.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
