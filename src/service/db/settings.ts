/**
 * Persisted service settings, each created once (e.g. the URL signing secret, so links survive restarts).
 * Implementations: `settings.sqlite.ts`, `settings.postgres.ts`.
 */
export interface SettingStore {
  /** The setting `name`, or undefined when there is none. */
  get(name: string): Promise<string | undefined>;
  /** The setting `name`; created with `create()` when missing (the first writer wins; `create` runs either way). */
  getOrCreate(name: string, create: () => string): Promise<string>;
  /** Sets `name` to `next` if it still holds `expected` (another process may have changed it); true when it did. */
  replace(name: string, expected: string, next: string): Promise<boolean>;
}
