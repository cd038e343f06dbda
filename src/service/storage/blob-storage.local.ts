import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { checkRange, type BlobStorage, type StoredFile, type TreeFile } from './blob-storage.js';
import { inside } from './local-path.js';

/**
 * {@link BlobStorage} on the local disk. Atomicity comes from writing into a temporary folder on the same file
 * system and renaming it into place, so a crash leaves at most an orphan under `.tmp/` (swept on start).
 */
export class LocalBlobStorage implements BlobStorage {
  readonly root: string;
  private readonly temporary: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.temporary = join(this.root, '.tmp');
  }

  /** Removes temporary leftovers of writes a crash interrupted. */
  async sweep(): Promise<void> {
    await rm(this.temporary, { recursive: true, force: true });
  }

  async putTree(prefix: string, files: Iterable<TreeFile>): Promise<void> {
    const target = this.pathOf(prefix);
    const staging = await this.stagingPath();
    try {
      for (const { path: name, content } of files) {
        const path = inside(staging, name);
        await mkdir(dirname(path), { recursive: true });
        // The stream waits for the disk (backpressure): chunks are not piled up in memory.
        await pipeline(content instanceof Uint8Array ? [content] : content, createWriteStream(path, { flags: 'wx' }));
      }
      await mkdir(staging, { recursive: true });
      await mkdir(dirname(target), { recursive: true });
      await rename(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
  }

  async putFile(key: string, sourcePath: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(sourcePath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const staging = await this.stagingPath();
      await copyFile(sourcePath, staging);
      await rename(staging, target);
    }
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      // A key naming a folder (a project's subfolder) holds no file either.
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
      throw error;
    }
  }

  async open(key: string): Promise<StoredFile | undefined> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      return {
        size: info.size,
        stream: (range) => {
          if (range) checkRange(range, info.size);
          return createReadStream(path, range && { start: range.start, end: range.end });
        },
      };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async localDirectory(prefix: string): Promise<string> {
    return this.pathOf(prefix);
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  private pathOf(key: string): string {
    return inside(this.root, key);
  }

  private async stagingPath(): Promise<string> {
    await mkdir(this.temporary, { recursive: true });
    return join(this.temporary, randomBytes(12).toString('hex'));
  }
}

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');
