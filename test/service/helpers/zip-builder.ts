/**
 * Hand-made zip archives for hostile-upload tests: every header field is under the test's control (names as
 * raw bytes, declared sizes that lie, Unix modes, flags, methods), which no zip library would write.
 */
import { deflateSync, zipSync } from 'fflate';
import { crc32 } from 'node:zlib';

export interface RawEntry {
  readonly name: string | Uint8Array;
  readonly data?: Uint8Array | string;
  /** Bytes written as the entry's (compressed) data instead of compressing `data`. */
  readonly rawBody?: Uint8Array;
  /** 0 stored, 8 deflate (default), anything else to test unsupported methods. */
  readonly method?: number;
  /** Declared uncompressed size; default the real one. */
  readonly declaredSize?: number;
  readonly crc?: number;
  readonly flags?: number;
  /** Unix `st_mode`; sets "version made by" to Unix. */
  readonly unixMode?: number;
  /** Name written in the local header, when it should differ from the central directory's. */
  readonly localName?: string;
}

const encoder = new TextEncoder();
const bytesOf = (value: string | Uint8Array) => (typeof value === 'string' ? encoder.encode(value) : value);

export function buildZip(entries: readonly RawEntry[], options: { zip64Locator?: boolean } = {}): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = bytesOf(entry.name);
    const localName = entry.localName === undefined ? name : bytesOf(entry.localName);
    const data = bytesOf(entry.data ?? '');
    const method = entry.method ?? 8;
    const body = entry.rawBody ?? (method === 8 ? deflateSync(data) : data);
    const size = entry.declaredSize ?? data.byteLength;
    const crc = entry.crc ?? crc32(data);
    const flags = (entry.flags ?? 0) | (typeof entry.name === 'string' ? 0x0800 : 0);

    const local = new Uint8Array(30 + localName.byteLength + body.byteLength);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, flags, true);
    lv.setUint16(8, method, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.byteLength, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, localName.byteLength, true);
    local.set(localName, 30);
    local.set(body, 30 + localName.byteLength);

    const central = new Uint8Array(46 + name.byteLength);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, entry.unixMode === undefined ? 20 : (3 << 8) | 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, flags, true);
    cv.setUint16(10, method, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.byteLength, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.byteLength, true);
    cv.setUint32(38, entry.unixMode === undefined ? 0 : (entry.unixMode << 16) >>> 0, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);

    locals.push(local);
    centrals.push(central);
    offset += local.byteLength;
  }
  const directorySize = centrals.reduce((sum, part) => sum + part.byteLength, 0);
  const locator = new Uint8Array(options.zip64Locator ? 20 : 0);
  if (options.zip64Locator) new DataView(locator.buffer).setUint32(0, 0x07064b50, true);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, directorySize, true);
  ev.setUint32(16, offset, true);
  return concat([...locals, ...centrals, locator, end]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** A well-formed project zip made by fflate, as the client makes them. */
export function projectZip(files: Record<string, string | Uint8Array>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, content]) => [name, bytesOf(content)])));
}
