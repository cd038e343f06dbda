import { ErrorCode } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';

/** One entry of a zip's central directory, as declared (nothing inflated yet). */
export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** Offset of the entry's data in the archive (after its local header). */
  readonly dataOffset: number;
  readonly isDirectory: boolean;
  /** Unix `st_mode` when the archive was made on a Unix-like host, else undefined. */
  readonly unixMode: number | undefined;
}

const Signature = {
  endOfDirectory: 0x06054b50,
  zip64Locator: 0x07064b50,
  directoryEntry: 0x02014b50,
  localHeader: 0x04034b50,
} as const;
const END_RECORD_SIZE = 22;
const DIRECTORY_ENTRY_SIZE = 46;
const LOCAL_HEADER_SIZE = 30;
const MAX_COMMENT = 0xffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const SUPPORTED_METHODS: ReadonlySet<number> = new Set([0, 8]);
/** "Version made by" hosts whose external attributes carry a Unix mode: Unix and macOS. */
const UNIX_HOSTS: ReadonlySet<number> = new Set([3, 19]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

const invalid = (message: string) => new ServiceError(ErrorCode.zipInvalid, message);
const unsupported = (message: string) => new ServiceError(ErrorCode.zipUnsupported, message);

function findEndRecord(view: DataView): number {
  const last = view.byteLength - END_RECORD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let offset = last; offset >= first; offset--) {
    if (view.getUint32(offset, true) === Signature.endOfDirectory) return offset;
  }
  throw invalid('the upload is not a zip archive: no end of central directory record');
}

/**
 * Reads the central directory of a zip held in memory and checks that it is self-consistent (every local
 * header where the directory says, with the same name, data inside the archive). Refuses zip64, multi-disk and
 * encrypted archives and compression methods other than stored and deflate. `maxEntries` is checked on the
 * declared count, before any entry is read.
 */
export function readZipDirectory(archive: Uint8Array, maxEntries: number): ZipEntry[] {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  if (archive.byteLength < END_RECORD_SIZE)
    throw invalid(`the upload is not a zip archive: ${archive.byteLength} bytes`);
  const end = findEndRecord(view);
  if (end >= 20 && view.getUint32(end - 20, true) === Signature.zip64Locator)
    throw unsupported('zip64 archives are not supported');
  const disk = view.getUint16(end + 4, true);
  const directoryDisk = view.getUint16(end + 6, true);
  const entriesOnDisk = view.getUint16(end + 8, true);
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff)
    throw unsupported('zip64 archives are not supported');
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== count)
    throw unsupported('multi-disk archives are not supported');
  if (count > maxEntries) {
    throw new ServiceError(
      ErrorCode.zipEntryCountExceeded,
      `the archive must hold at most ${maxEntries} entries, got ${count}`,
    );
  }
  if (directoryOffset + directorySize > end) throw invalid('the central directory lies outside the archive');

  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (offset + DIRECTORY_ENTRY_SIZE > end || view.getUint32(offset, true) !== Signature.directoryEntry) {
      throw invalid(`central directory entry ${index} is malformed`);
    }
    const madeBy = view.getUint16(offset + 4, true);
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const crc32 = view.getUint32(offset + 16, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const externalAttributes = view.getUint32(offset + 38, true);
    const localOffset = view.getUint32(offset + 42, true);
    const nameBytes = archive.subarray(offset + DIRECTORY_ENTRY_SIZE, offset + DIRECTORY_ENTRY_SIZE + nameLength);
    offset += DIRECTORY_ENTRY_SIZE + nameLength + extraLength + commentLength;
    if (offset > end) throw invalid(`central directory entry ${index} runs past the directory`);

    let name: string;
    try {
      name = utf8.decode(nameBytes);
    } catch {
      throw new ServiceError(ErrorCode.zipEntryNameInvalid, `entry ${index} has a name that is not valid UTF-8`);
    }
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localOffset === 0xffffffff) {
      throw unsupported(`entry "${name}" uses zip64 sizes, which are not supported`);
    }
    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) throw unsupported(`entry "${name}" is encrypted`);
    if (!SUPPORTED_METHODS.has(method))
      throw unsupported(
        `entry "${name}" uses compression method ${method}; only 0 (stored) and 8 (deflate) are supported`,
      );

    const dataOffset = localDataOffset(archive, view, localOffset, nameBytes, name);
    if (dataOffset + compressedSize > directoryOffset)
      throw invalid(`the data of entry "${name}" runs past the archive`);
    entries.push({
      name,
      method,
      flags,
      crc32,
      compressedSize,
      uncompressedSize,
      dataOffset,
      isDirectory: name.endsWith('/'),
      unixMode: UNIX_HOSTS.has(madeBy >>> 8) ? externalAttributes >>> 16 : undefined,
    });
  }
  return entries;
}

/** Checks the local header of an entry and returns where its data starts. */
function localDataOffset(
  archive: Uint8Array,
  view: DataView,
  offset: number,
  nameBytes: Uint8Array,
  name: string,
): number {
  if (offset + LOCAL_HEADER_SIZE > archive.byteLength || view.getUint32(offset, true) !== Signature.localHeader) {
    throw invalid(`the local header of entry "${name}" is missing`);
  }
  const nameLength = view.getUint16(offset + 26, true);
  const extraLength = view.getUint16(offset + 28, true);
  const localName = archive.subarray(offset + LOCAL_HEADER_SIZE, offset + LOCAL_HEADER_SIZE + nameLength);
  if (!sameBytes(localName, nameBytes)) throw invalid(`entry "${name}" has a different name in its local header`);
  return offset + LOCAL_HEADER_SIZE + nameLength + extraLength;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let index = 0; index < a.byteLength; index++) if (a[index] !== b[index]) return false;
  return true;
}
