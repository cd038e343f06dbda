import type { SettingStore } from './settings.js';
import type { Sqlite } from './sqlite.js';

export class SqliteSettingStore implements SettingStore {
  constructor(private readonly db: Sqlite) {}

  async getOrCreate(name: string, create: () => string) {
    this.db
      .prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING')
      .run(name, create());
    return (this.db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: string }).value;
  }

  async get(name: string) {
    return (this.db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: string } | undefined)
      ?.value;
  }

  async replace(name: string, expected: string, next: string) {
    return (
      this.db.prepare('UPDATE settings SET value = ? WHERE name = ? AND value = ?').run(next, name, expected).changes >
      0
    );
  }
}
