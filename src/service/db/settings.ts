import type { Sqlite } from './sqlite.js';

/** A persisted service setting, created once with `create()` (e.g. the signing secret, so links survive restarts). */
export function settingOrCreate(db: Sqlite, name: string, create: () => string): string {
  db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, create());
  return (db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: string }).value;
}
