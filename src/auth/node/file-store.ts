import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { authError, AuthErrorCode } from '../errors.js';
import type { CredentialStore } from '../store.js';

/** `~/.fx/credentials`: where `fx auth login` and the Node SDK keep credentials. */
export const defaultCredentialsPath = (home = homedir()) => join(home, '.fx', 'credentials');

type Values = Record<string, unknown>;

/**
 * Credentials in one JSON object file, private to the user (file 0600, new folder 0700). Every write goes to a
 * temporary file in the same folder, is flushed, then renamed over the old file, so a crash leaves the old file or
 * the new one, never half of one. Keys this version does not know are written back as they were. A file that is
 * not a JSON object is refused (`auth_credentials_file_corrupt`) and left untouched for the user to look at.
 */
export class FileCredentialStore implements CredentialStore {
  readonly kind = 'file';
  /** Writes in this process, one after another: each reads what the one before wrote. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string = defaultCredentialsPath()) {}

  async get<T>(key: string): Promise<T | undefined> {
    return (await this.read())[key] as T | undefined;
  }

  set(key: string, value: unknown): Promise<void> {
    return this.update(key, () => value);
  }

  delete(key: string): Promise<void> {
    return this.update(key, () => undefined);
  }

  update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<void> {
    const run = this.queue.then(async () => {
      const values = await this.read();
      const next = change(values[key] as T | undefined);
      if (next === undefined && !(key in values)) return;
      if (next === undefined) delete values[key];
      else values[key] = next;
      await this.write(values);
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async read(): Promise<Values> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw this.unavailable(error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw authError(
        AuthErrorCode.credentialsFileCorrupt,
        `the credentials file ${JSON.stringify(this.path)} is not valid JSON; fix or remove it`,
        { cause },
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw authError(
        AuthErrorCode.credentialsFileCorrupt,
        `the credentials file ${JSON.stringify(this.path)} must hold a JSON object; fix or remove it`,
      );
    }
    return parsed as Values;
  }

  private async write(values: Values): Promise<void> {
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const file = await open(temporary, 'wx', 0o600);
      try {
        await file.writeFile(`${JSON.stringify(values, null, 2)}\n`);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw this.unavailable(error);
    }
  }

  private unavailable(cause: unknown) {
    return authError(
      AuthErrorCode.credentialsFileUnavailable,
      `the credentials file ${JSON.stringify(this.path)} cannot be used: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`,
      { cause },
    );
  }
}
