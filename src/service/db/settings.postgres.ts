import type { PgPool } from './postgres.js';
import type { SettingStore } from './settings.js';

export class PostgresSettingStore implements SettingStore {
  constructor(private readonly pool: PgPool) {}

  async getOrCreate(name: string, create: () => string) {
    await this.pool.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      create(),
    ]);
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
    return rows[0]!.value;
  }

  async get(name: string) {
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
    return rows[0]?.value;
  }

  async replace(name: string, expected: string, next: string) {
    const { rowCount } = await this.pool.query('UPDATE settings SET value = $1 WHERE name = $2 AND value = $3', [
      next,
      name,
      expected,
    ]);
    return rowCount === 1;
  }
}
