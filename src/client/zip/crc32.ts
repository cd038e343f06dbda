/**
 * CRC-32 (the zip one: reflected, polynomial 0xEDB88320), eight bytes a step with eight tables ("slicing by 8"):
 * about twice as fast as a byte at a time, which is what a stored media file costs the main thread.
 */
const TABLES = (() => {
  const tables = new Int32Array(256 * 8);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    tables[byte] = crc;
  }
  for (let byte = 0; byte < 256; byte++) {
    for (let table = 1; table < 8; table++) {
      const previous = tables[(table - 1) * 256 + byte]!;
      tables[table * 256 + byte] = (previous >>> 8) ^ tables[previous & 255]!;
    }
  }
  return tables;
})();

/** The CRC-32 of `data` continued from `crc` (the CRC of the bytes before it; 0 to start). */
export function crc32(data: Uint8Array, crc = 0): number {
  const t = TABLES;
  let c = ~crc;
  let i = 0;
  for (const last = data.length - 8; i <= last; i += 8) {
    const low = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) ^ c;
    c =
      t[1792 + (low & 255)]! ^
      t[1536 + ((low >>> 8) & 255)]! ^
      t[1280 + ((low >>> 16) & 255)]! ^
      t[1024 + (low >>> 24)]! ^
      t[768 + data[i + 4]!]! ^
      t[512 + data[i + 5]!]! ^
      t[256 + data[i + 6]!]! ^
      t[data[i + 7]!]!;
  }
  for (; i < data.length; i++) c = t[(c ^ data[i]!) & 255]! ^ (c >>> 8);
  return ~c >>> 0;
}
