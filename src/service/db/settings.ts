/**
 * Persisted service settings, each created once (e.g. the URL signing secret, so links survive restarts).
 * Implementations: `settings.sqlite.ts`, `settings.postgres.ts`.
 */
export interface SettingStore {
  /** The setting `name`; created with `create()` when missing (the first writer wins). */
  getOrCreate(name: string, create: () => string): Promise<string>;
}
