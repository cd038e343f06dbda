/**
 * How the text of an environment variable becomes a setting's value. Each reader throws an `Error` whose message
 * says what was expected; `readServiceSettings` names the variable and what it got.
 */
import { TrustedProxies } from '../http/client-address.js';

export const text = (value: string): string => value;

export const integer =
  (min: number, max: number) =>
  (value: string): number => {
    if (!/^\d{1,10}$/.test(value) || Number(value) < min || Number(value) > max)
      throw new Error(`an integer from ${min} to ${max}`);
    return Number(value);
  };

const FLAGS: Readonly<Record<string, boolean>> = { '1': true, true: true, '0': false, false: false };

export function flag(value: string): boolean {
  const read = FLAGS[value];
  if (read === undefined) throw new Error('"1", "0", "true" or "false"');
  return read;
}

export const choice =
  <T extends string>(choices: readonly T[]) =>
  (value: string): T => {
    if (!(choices as readonly string[]).includes(value)) throw new Error(`one of ${choices.join(', ')}`);
    return value as T;
  };

/** An http(s) URL with no credentials, query or fragment; trailing slashes dropped. */
export function httpUrl(value: string): string {
  const url = URL.parse(value);
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  )
    throw new Error('an http: or https: URL without credentials, query or fragment');
  return value.replace(/\/+$/, '');
}

export function postgresUrl(value: string): string {
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.hostname === '')
    throw new Error('a postgres://user:password@host:port/database URL');
  return value;
}

/** Comma-separated, each entry trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Comma-separated IP addresses and CIDR ranges (trusted proxies). */
export function addressList(value: string): string[] {
  const entries = commaList(value);
  for (const entry of entries)
    try {
      new TrustedProxies([entry]);
    } catch {
      throw new Error(
        `IP addresses or CIDR ranges such as 10.0.0.0/8, and ${JSON.stringify(entry.slice(0, 100))} is neither`,
      );
    }
  return entries;
}

/** A bearer token for `/metrics`: printable, no spaces, long enough not to be guessed. */
export function metricsToken(value: string): string {
  if (!/^[\x21-\x7e]{16,}$/.test(value)) throw new Error('at least 16 printable characters without spaces');
  return value;
}
