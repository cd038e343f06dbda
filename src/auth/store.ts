/**
 * Where credentials live: IndexedDB in a browser (`openBrowserStore`), memory as the fallback, a 0600 file in Node
 * (`fx-sdk/node`'s `FileCredentialStore`). Values are JSON-compatible; keys are the {@link StoreKey} names.
 */
export interface CredentialStore {
  /** `memory` forgets on reload; the others persist (a browser API key goes there only on opt-in). */
  readonly kind: 'memory' | 'indexeddb' | 'file';
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Reads, changes and writes one key as a unit (one IndexedDB transaction), so two tabs taking the same pending
   * sign-in cannot both get it. `undefined` from `change` deletes the key.
   */
  update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<void>;
}

/** Record names inside a store. */
export const StoreKey = {
  /** The signed-in tokens of one client at one issuer: `session:{clientId}@{issuer}`. */
  session: (clientId: string, issuer: string) => `session:${clientId}@${issuer}`,
  /** Redirect sign-ins started and not yet completed, and the `state`s already used. */
  pending: 'pending-sign-ins',
  /** An API key, only where the caller asked for it to be kept. */
  apiKey: 'api-key',
  /** The `/v3` base URL that goes with the stored credentials (Node). */
  apiUrl: 'api-url',
} as const;

/** A store for one page load (or one process): nothing persists. */
export class MemoryCredentialStore implements CredentialStore {
  readonly kind = 'memory';
  private readonly values = new Map<string, unknown>();

  async get<T>(key: string): Promise<T | undefined> {
    return structuredClone(this.values.get(key)) as T | undefined;
  }

  async set(key: string, value: unknown): Promise<void> {
    this.values.set(key, structuredClone(value));
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  async update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<void> {
    const next = change(structuredClone(this.values.get(key)) as T | undefined);
    if (next === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(next));
  }
}
