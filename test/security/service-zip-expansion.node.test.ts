// Issue 8 item 17: a zip that stays under every per-entry limit must not make the service hold (or store) the
// whole unpacked project: the 100:1 ratio applied only to entries of 1 MiB or more, so 550 KB of entries just
// under 1 MiB stored 500 MiB and took the service from 150 MB to 805 MB. Now the ratio also bounds the archive as
// a whole, and extraction streams entry by entry to disk (bounded memory, nothing left behind on failure).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { deflateSync } from 'fflate';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { crc32 } from 'node:zlib';
import { compositionHtml, startTestService, zipInit, type TestService } from '../service/helpers/harness.js';
import { buildZip, type RawEntry } from '../service/helpers/zip-builder.js';

const MiB = 1024 * 1024;
/** Just under the size from which the per-entry ratio applied. */
const SMALL = MiB - 1;
const ZEROS = new Uint8Array(SMALL);
// One deflated body and CRC reused by every entry of zeros: the archives are made in milliseconds.
const ZEROS_DEFLATED = deflateSync(ZEROS, { level: 9 });
const ZEROS_CRC = crc32(ZEROS);
const zerosEntry = (name: string): RawEntry => ({ name, rawBody: ZEROS_DEFLATED, declaredSize: SMALL, crc: ZEROS_CRC });
const INDEX: RawEntry = { name: 'index.html', data: compositionHtml() };

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(() => service.close());

// A collection before each measurement, so what an earlier test left for the collector does not count.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Peak growth of the process's memory while `work` runs, sampled every 5 ms (generous bounds only). */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; rssMiB: number; arrayBuffersMiB: number }> {
  collectGarbage();
  const base = process.memoryUsage();
  let rss = base.rss;
  let arrayBuffers = base.arrayBuffers;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers);
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await work();
    sample();
    return { result, rssMiB: (rss - base.rss) / MiB, arrayBuffersMiB: (arrayBuffers - base.arrayBuffers) / MiB };
  } finally {
    clearInterval(timer);
  }
}

const upload = async (zip: Uint8Array) => {
  const response = await service.api('/v3/assets', zipInit(zip));
  return {
    status: response.status,
    body: (await response.json()) as {
      error?: { code: string; message: string };
      asset_id?: string;
      size_bytes?: number;
    },
  };
};
const mib = (value: number) => `${value.toFixed(1)} MiB`;

test('550 KB of entries just under 1 MiB each (500 MiB unpacked) is refused for its overall ratio, storing nothing', async (t) => {
  const zip = buildZip([INDEX, ...Array.from({ length: 500 }, (_, index) => zerosEntry(`pad/${index}.bin`))]);
  assert.ok(zip.byteLength < 600 * 1024, `the archive is ${zip.byteLength} bytes`);
  const { result, rssMiB, arrayBuffersMiB } = await peakGrowth(() => upload(zip));
  t.diagnostic(
    `${zip.byteLength} bytes declaring ${mib((500 * SMALL) / MiB)}: status ${result.status}, peak growth rss ${mib(rssMiB)}, arrayBuffers ${mib(arrayBuffersMiB)}`,
  );
  assert.equal(result.status, 422, JSON.stringify(result.body));
  assert.equal(result.body.error?.code, 'zip_compression_ratio_exceeded');
  assert.deepEqual(await service.storedAssetEntries(), []);
  assert.equal(await service.count('assets'), 0);
  assert.ok(arrayBuffersMiB < 64, `arrayBuffers grew by ${mib(arrayBuffersMiB)}`);
});

test('a large project within the limits is extracted with bounded memory', async (t) => {
  // 160 MiB of zeros in entries under 1 MiB, plus 2 MiB that does not compress: about 80:1 overall.
  const zip = buildZip([
    INDEX,
    ...Array.from({ length: 160 }, (_, index) => zerosEntry(`media/${index}.bin`)),
    { name: 'noise.bin', data: randomBytes(2 * MiB), method: 0 },
  ]);
  const { result, rssMiB, arrayBuffersMiB } = await peakGrowth(() => upload(zip));
  t.diagnostic(
    `${mib(zip.byteLength / MiB)} archive unpacking to ${mib((result.body.size_bytes ?? 0) / MiB)}: status ${result.status}, peak growth rss ${mib(rssMiB)}, arrayBuffers ${mib(arrayBuffersMiB)}`,
  );
  assert.equal(result.status, 201, JSON.stringify(result.body));
  const folder = `assets/${result.body.asset_id!}`;
  const sizes = new Map((await service.storedKeys(`${folder}/`)).map(({ key, size }) => [key, size]));
  assert.equal([...sizes.keys()].filter((key) => key.startsWith(`${folder}/media/`)).length, 160);
  assert.equal(sizes.get(`${folder}/media/159.bin`), SMALL);
  assert.equal(sizes.get(`${folder}/noise.bin`), 2 * MiB);
  // Streaming holds a few 64 KiB chunks at a time; what grows is garbage the collector takes when it likes (about
  // 35 MiB here whether the project unpacks to 100 or 300 MiB, nothing with a collection every 5 ms). Holding
  // the project whole, as before, grew it by more than the project's 162 MiB.
  assert.ok(arrayBuffersMiB < 80, `arrayBuffers grew by ${mib(arrayBuffersMiB)}`);
});

for (const [name, last, code] of [
  ['a CRC mismatch', { ...zerosEntry('z/last.bin'), crc: 1234 }, 'zip_invalid'],
  [
    'an entry inflating beyond its declared size',
    { ...zerosEntry('z/last.bin'), declaredSize: 1000 },
    'zip_inflated_size_exceeded',
  ],
  [
    'corrupt deflate data',
    { name: 'z/last.bin', rawBody: ZEROS_DEFLATED.subarray(0, 200), declaredSize: SMALL, crc: ZEROS_CRC },
    'zip_invalid',
  ],
] as const) {
  test(`${name} in the last of many entries leaves nothing stored, not even the entries written before it`, async () => {
    const zip = buildZip([
      INDEX,
      ...Array.from({ length: 20 }, (_, index) => zerosEntry(`z/${index}.bin`)),
      last,
      { name: 'noise.bin', data: randomBytes(256 * 1024), method: 0 },
    ]);
    const stored = await service.storedAssetEntries();
    const assets = await service.count('assets');
    const result = await upload(zip);
    assert.equal(result.status, 422, JSON.stringify(result.body));
    assert.equal(result.body.error?.code, code, result.body.error?.message);
    assert.deepEqual(await service.storedAssetEntries(), stored);
    assert.equal(await service.count('assets'), assets);
  });
}
