import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordRecords } from './password-records.js';

/** scrypt cost: N = 2^15, r = 8, p = 1 (≈ 32 MiB, tens of milliseconds per attempt). */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** Codes of {@link PasswordError}. */
export const PasswordErrorCode = {
  tooShort: 'password_too_short',
  tooLong: 'password_too_long',
} as const;
export type PasswordErrorCode = (typeof PasswordErrorCode)[keyof typeof PasswordErrorCode];

/** A password that cannot be set; `code` is stable. */
export class PasswordError extends Error {
  override name = 'PasswordError';
  constructor(
    readonly code: PasswordErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Throws `PasswordError` when `password` cannot be set. */
export function assertPasswordAcceptable(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH)
    throw new PasswordError(
      PasswordErrorCode.tooShort,
      `the password must be at least ${PASSWORD_MIN_LENGTH} characters, got ${password.length}`,
    );
  if (password.length > PASSWORD_MAX_LENGTH)
    throw new PasswordError(
      PasswordErrorCode.tooLong,
      `the password must be at most ${PASSWORD_MAX_LENGTH} characters, got ${password.length}`,
    );
}

const derive = (password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** `scrypt$N$r$p$salt$key` (base64url): the parameters travel with the hash so the cost can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  assertPasswordAcceptable(password);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key || password.length > PASSWORD_MAX_LENGTH) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spent on unknown accounts so a wrong name takes as long as a wrong password; made on first use. */
let unknownAccountHash: Promise<string> | undefined;

/** Account passwords for the sign-in page, set by `admin.ts set-password`; only scrypt hashes are stored. */
export class PasswordStore {
  constructor(
    private readonly records: PasswordRecords,
    private readonly now: () => number = Date.now,
  ) {}

  async set(accountId: string, password: string): Promise<void> {
    await this.records.save(accountId, await hashPassword(password), this.now());
  }

  /** True when the account has a password and `password` is it; takes as long for an unknown account. */
  async check(accountId: string | undefined, password: string): Promise<boolean> {
    const hash = accountId === undefined ? undefined : await this.records.hashOf(accountId);
    const matches = await verifyPassword(
      password,
      hash ?? (await (unknownAccountHash ??= hashPassword(randomBytes(24).toString('base64url')))),
    );
    return hash !== undefined && matches;
  }
}
