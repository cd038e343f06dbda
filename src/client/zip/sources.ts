/**
 * The browser's ways of handing over a folder, read into one list of project files: a `FileList` or `File[]` from
 * `<input webkitdirectory>`, a drop (`DataTransfer` or its `FileSystemEntry`s), a File System Access directory
 * handle, or `{ path, data }` entries. Ignored folders are not opened; ignored files are not read.
 */
import { ZipError, ProjectSourceErrorCode } from './errors.js';
import { IGNORE_FILE, ignoreRules, type IgnoreRules } from './ignore.js';
import { nextTask } from './next-task.js';

/** A file given by its project path. `data` is taken as it is (a string as UTF-8) and read while zipping: leave it unchanged until the zip is done. */
export interface ProjectEntry {
  readonly path: string;
  readonly data: string | Uint8Array | Blob;
}

/** What `zipProject` reads a project from in a browser (in Node, see `zipProjectDirectory`). */
export type ProjectSource =
  | FileList
  | readonly File[]
  | DataTransfer
  | readonly FileSystemEntry[]
  | FileSystemDirectoryHandle
  | readonly ProjectEntry[];

/** One file of a project: its path from the root (`/`-separated) and its bytes (bytes in memory are not copied). */
export interface ProjectFile {
  readonly path: string;
  readonly content: Blob | Uint8Array;
}

export const sizeOf = (content: Blob | Uint8Array) =>
  content instanceof Uint8Array ? content.byteLength : content.size;

/**
 * Bytes `start` to `end` of `content`. Bytes in memory are a view on the caller's buffer unless `copy` (a worker
 * is given the buffer of what it is pushed, which would take the caller's bytes away).
 */
export async function readBytes(
  content: Blob | Uint8Array,
  start: number,
  end: number,
  copy = false,
): Promise<Uint8Array> {
  if (content instanceof Uint8Array) return copy ? content.slice(start, end) : content.subarray(start, end);
  return new Uint8Array(await content.slice(start, end).arrayBuffer());
}

const textOf = async (content: Blob | Uint8Array) =>
  new TextDecoder().decode(await readBytes(content, 0, sizeOf(content)));

/** `false`: zip every file given, the fixed ignore set and `.fxignore` included. */
export type IgnoreOption = boolean;

const invalid = (message: string, cause?: unknown) =>
  new ZipError(ProjectSourceErrorCode.sourceInvalid, message, cause === undefined ? {} : { cause });

/**
 * The project's files, without the ignored ones (unless `ignore` is false). A `DataTransfer` is read at once, before
 * anything awaits: the browser empties it when the drop event ends.
 */
export function readSource(source: ProjectSource, ignore: IgnoreOption = true): Promise<ProjectFile[]> {
  if (isDataTransfer(source)) {
    const entries = [...source.items].filter((item) => item.kind === 'file').map((item) => item.webkitGetAsEntry());
    return readEntries(
      entries.filter((entry): entry is FileSystemEntry => entry !== null),
      ignore,
    );
  }
  if (isDirectoryHandle(source)) return readHandle(source, ignore);
  const items = [...(source as ArrayLike<unknown> & Iterable<unknown>)];
  if (items.length === 0) return Promise.resolve([]);
  if (items.every(isProjectEntry)) return entryFiles(items).then((files) => filtered(files, ignore));
  if (items.every(isFileSystemEntry)) return readEntries(items, ignore);
  if (items.every((item): item is File => item instanceof File)) return filtered(pickedFiles(items), ignore);
  return Promise.reject(
    invalid(
      'the project source must be a FileList, File[], DataTransfer, FileSystemEntry[], FileSystemDirectoryHandle or { path, data }[]',
    ),
  );
}

function isDataTransfer(source: unknown): source is DataTransfer {
  return typeof DataTransfer !== 'undefined' && source instanceof DataTransfer;
}

function isDirectoryHandle(source: unknown): source is FileSystemDirectoryHandle {
  return (
    typeof source === 'object' &&
    source !== null &&
    (source as FileSystemHandle).kind === 'directory' &&
    'getFileHandle' in source
  );
}

function isProjectEntry(item: unknown): item is ProjectEntry {
  return typeof item === 'object' && item !== null && typeof (item as ProjectEntry).path === 'string' && 'data' in item;
}

function isFileSystemEntry(item: unknown): item is FileSystemEntry {
  return (
    typeof item === 'object' &&
    item !== null &&
    typeof (item as FileSystemEntry).isDirectory === 'boolean' &&
    'fullPath' in item
  );
}

/** Characters of a string encoded per task. */
const STRING_SLICE = 256 * 1024;

async function entryFiles(entries: readonly ProjectEntry[]): Promise<ProjectFile[]> {
  const files: ProjectFile[] = [];
  for (const { path, data } of entries) {
    if (typeof data === 'string') {
      files.push({
        path,
        content: data.length > STRING_SLICE ? await encodeLong(data) : new TextEncoder().encode(data),
      });
    } else if (data instanceof Uint8Array || data instanceof Blob) {
      files.push({ path, content: data });
    } else {
      throw invalid(`the data of ${JSON.stringify(path)} must be a string, Uint8Array or Blob`);
    }
  }
  return files;
}

/** A long string as UTF-8, a slice per task (never between the two halves of a surrogate pair). */
async function encodeLong(text: string): Promise<Blob> {
  const encoder = new TextEncoder();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let start = 0; start < text.length;) {
    await nextTask();
    let end = Math.min(start + STRING_SLICE, text.length);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
    parts.push(encoder.encode(text.slice(start, end)));
    start = end;
  }
  return new Blob(parts);
}

/** Files from `<input webkitdirectory>`: their paths start with the picked folder's name, which is dropped. */
function pickedFiles(files: readonly File[]): ProjectFile[] {
  const paths = files.map((file) => file.webkitRelativePath || file.name);
  const top = paths[0]!.split('/', 1)[0]!;
  const shared = paths.every((path) => path.startsWith(`${top}/`));
  return files.map((file, index) => ({
    path: shared ? paths[index]!.slice(top.length + 1) : paths[index]!,
    content: file,
  }));
}

async function filtered(files: ProjectFile[], ignore: IgnoreOption): Promise<ProjectFile[]> {
  if (!ignore) return files;
  const ignoreFile = files.find((file) => file.path === IGNORE_FILE);
  const rules = ignoreRules(ignoreFile && (await textOf(ignoreFile.content)));
  return files.filter((file) => !rules.ignores(file.path));
}

const NO_RULES: IgnoreRules = { ignores: () => false, prunes: () => false };

/**
 * Dropped entries. One dropped folder is the project's root; several items are the root's content.
 */
async function readEntries(entries: readonly FileSystemEntry[], ignore: IgnoreOption): Promise<ProjectFile[]> {
  const root =
    entries.length === 1 && entries[0]!.isDirectory
      ? await directoryContent(entries[0] as FileSystemDirectoryEntry)
      : entries;
  let rules = NO_RULES;
  if (ignore) {
    const ignoreFile = root.find((entry) => entry.isFile && entry.name === IGNORE_FILE) as
      FileSystemFileEntry | undefined;
    rules = ignoreRules(ignoreFile ? await (await entryBlob(ignoreFile)).text() : undefined);
  }
  const files: ProjectFile[] = [];
  const walk = async (items: readonly FileSystemEntry[], prefix: string): Promise<void> => {
    for (const item of items) {
      const path = `${prefix}${item.name}`;
      if (item.isDirectory) {
        if (!rules.prunes(path)) await walk(await directoryContent(item as FileSystemDirectoryEntry), `${path}/`);
      } else if (!rules.ignores(path)) {
        files.push({ path, content: await entryBlob(item as FileSystemFileEntry) });
      }
    }
  };
  await walk(root, '');
  return files;
}

/** Every entry of a dropped folder: `readEntries` answers in batches until an empty one. */
async function directoryContent(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, (error) =>
        reject(invalid(`folder ${JSON.stringify(directory.fullPath)} could not be read`, error)),
      ),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

function entryBlob(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) =>
    entry.file(resolve, (error) => reject(invalid(`file ${JSON.stringify(entry.fullPath)} could not be read`, error))),
  );
}

/** The entries of a directory handle (`values()` is in the File System Access spec, not yet in TypeScript's DOM lib). */
const handleValues = (handle: FileSystemDirectoryHandle) =>
  (handle as unknown as { values(): AsyncIterable<FileSystemHandle> }).values();

async function readHandle(root: FileSystemDirectoryHandle, ignore: IgnoreOption): Promise<ProjectFile[]> {
  let rules = NO_RULES;
  if (ignore) {
    const text = await root
      .getFileHandle(IGNORE_FILE)
      .then((handle) => handle.getFile())
      .then(
        (file) => file.text(),
        () => undefined,
      );
    rules = ignoreRules(text);
  }
  const files: ProjectFile[] = [];
  const walk = async (directory: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
    for await (const handle of handleValues(directory)) {
      const path = `${prefix}${handle.name}`;
      if (handle.kind === 'directory') {
        if (!rules.prunes(path)) await walk(handle as FileSystemDirectoryHandle, `${path}/`);
      } else if (!rules.ignores(path)) {
        files.push({ path, content: await (handle as FileSystemFileHandle).getFile() });
      }
    }
  };
  try {
    await walk(root, '');
  } catch (error) {
    if (error instanceof ZipError) throw error;
    throw invalid(`the folder ${JSON.stringify(root.name)} could not be read: ${(error as Error).message}`, error);
  }
  return files;
}
