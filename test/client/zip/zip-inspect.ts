/** Test tool: the central directory of a zip, as written (names, methods, times, attributes, sizes). */
export interface InspectedEntry {
  readonly name: string;
  readonly method: number;
  readonly madeBy: number;
  readonly dosTime: number;
  readonly dosDate: number;
  readonly externalAttributes: number;
  readonly compressedSize: number;
  readonly size: number;
}

export function inspectZip(zip: Uint8Array): InspectedEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.byteLength - 22;
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error('no end record (a comment?)');
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries: InspectedEntry[] = [];
  for (let index = 0; index < count; index++) {
    const nameLength = view.getUint16(offset + 28, true);
    entries.push({
      name: new TextDecoder().decode(zip.subarray(offset + 46, offset + 46 + nameLength)),
      madeBy: view.getUint16(offset + 4, true),
      method: view.getUint16(offset + 10, true),
      dosTime: view.getUint16(offset + 12, true),
      dosDate: view.getUint16(offset + 14, true),
      compressedSize: view.getUint32(offset + 20, true),
      size: view.getUint32(offset + 24, true),
      externalAttributes: view.getUint32(offset + 38, true),
    });
    offset += 46 + nameLength + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return entries;
}
