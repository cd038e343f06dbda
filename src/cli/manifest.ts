/**
 * `manifest.json` of a batch: one entry per row, written whole (to a temporary file, then renamed) each time a row
 * changes, so a reader or a `--resume` after a kill never sees half a file.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Its name, beside the batch's outputs (`fx render` and `fx cloud render` alike). */
export const MANIFEST_FILE = 'manifest.json';

export class ManifestWriter<Row extends object = object> {
  private rows: (Row | null)[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  /** The rows of an existing manifest (for `--resume`); `[]` when there is none or it cannot be read. Nothing is kept. */
  async load(): Promise<readonly (Row | null)[]> {
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as { rows?: unknown };
      return Array.isArray(parsed.rows) ? (parsed.rows as (Row | null)[]) : [];
    } catch {
      return [];
    }
  }

  /** Every row of this batch, written at once: the file describes this batch only, whatever an older one held. */
  start(rows: readonly Row[]): Promise<void> {
    this.rows = [...rows];
    return this.enqueue();
  }

  set(index: number, row: Row): Promise<void> {
    this.rows[index] = row;
    return this.enqueue();
  }

  private enqueue(): Promise<void> {
    const write = this.queue.then(() => this.write());
    this.queue = write.catch(() => {});
    return write;
  }

  private async write(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.tmp`;
    const rows = Array.from(this.rows, (row) => row ?? null);
    await writeFile(temporary, `${JSON.stringify({ updated_at: new Date().toISOString(), rows }, null, 2)}\n`);
    await rename(temporary, this.path);
  }
}
