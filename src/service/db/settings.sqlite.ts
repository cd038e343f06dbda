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
}
