import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildZip, projectZip, type RawEntry } from './helpers/zip-builder.js';
import { compositionHtml, startTestService, zipInit, type TestService } from './helpers/harness.js';

const MiB = 1024 * 1024;
const LIMITS = {
  uploadBytes: 2 * MiB,
  zipEntries: 50,
  zipUncompressedBytes: 4 * MiB,
  zipRatio: 100,
  zipRatioMinBytes: 1 * MiB,
};
const INDEX = compositionHtml();
const zeros = (bytes: number) => new Uint8Array(bytes);
const withIndex = (...entries: RawEntry[]): RawEntry[] => [{ name: 'index.html', data: INDEX }, ...entries];

/** Every hostile archive and the exact code it must get; each must leave nothing behind. */
const HOSTILE: { name: string; zip: () => Uint8Array; code: string; status?: number; param?: string }[] = [
  {
    name: 'bytes that are not a zip',
    zip: () => new TextEncoder().encode('this is not a zip archive at all'),
    code: 'zip_invalid',
  },
  { name: 'a truncated zip', zip: () => projectZip({ 'index.html': INDEX }).subarray(0, 40), code: 'zip_invalid' },
  {
    name: 'a "../" entry',
    zip: () => buildZip(withIndex({ name: '../evil.html', data: 'x' })),
    code: 'zip_entry_path_traversal',
  },
  {
    name: 'a nested "a/../../b" entry',
    zip: () => buildZip(withIndex({ name: 'a/../../b.html', data: 'x' })),
    code: 'zip_entry_path_traversal',
  },
  {
    name: 'a trailing ".." segment',
    zip: () => buildZip(withIndex({ name: 'assets/..', data: 'x' })),
    code: 'zip_entry_path_traversal',
  },
  {
    name: 'an absolute "/x" entry',
    zip: () => buildZip(withIndex({ name: '/etc/passwd', data: 'x' })),
    code: 'zip_entry_path_absolute',
  },
  {
    name: 'a drive "C:\\x" entry',
    zip: () => buildZip(withIndex({ name: 'C:\\windows\\x.dll', data: 'x' })),
    code: 'zip_entry_path_absolute',
  },
  {
    name: 'a drive "C:/x" entry',
    zip: () => buildZip(withIndex({ name: 'C:/x.html', data: 'x' })),
    code: 'zip_entry_path_absolute',
  },
  {
    name: 'a UNC "\\\\x" entry',
    zip: () => buildZip(withIndex({ name: '\\\\server\\share\\x', data: 'x' })),
    code: 'zip_entry_path_absolute',
  },
  {
    name: 'a backslash separator',
    zip: () => buildZip(withIndex({ name: 'assets\\logo.png', data: 'x' })),
    code: 'zip_entry_name_backslash',
  },
  {
    name: 'a backslash traversal',
    zip: () => buildZip(withIndex({ name: 'a\\..\\..\\b', data: 'x' })),
    code: 'zip_entry_name_backslash',
  },
  {
    name: 'a NUL in a name',
    zip: () => buildZip(withIndex({ name: 'a\u0000.html', data: 'x' })),
    code: 'zip_entry_name_control_character',
  },
  {
    name: 'a newline in a name',
    zip: () => buildZip(withIndex({ name: 'a\nb.html', data: 'x' })),
    code: 'zip_entry_name_control_character',
  },
  {
    name: 'a C1 control in a name',
    zip: () => buildZip(withIndex({ name: 'a\u0085b.html', data: 'x' })),
    code: 'zip_entry_name_control_character',
  },
  {
    name: 'an empty segment',
    zip: () => buildZip(withIndex({ name: 'a//b.html', data: 'x' })),
    code: 'zip_entry_name_invalid',
  },
  {
    name: 'a "." segment',
    zip: () => buildZip(withIndex({ name: './other.html', data: 'x' })),
    code: 'zip_entry_name_invalid',
  },
  {
    name: 'a name that is not UTF-8',
    zip: () => buildZip(withIndex({ name: new Uint8Array([0x61, 0xff, 0xfe, 0x2e]), data: 'x' })),
    code: 'zip_entry_name_invalid',
  },
  {
    name: 'a segment longer than 255 bytes',
    zip: () => buildZip(withIndex({ name: `${'a'.repeat(256)}.html`, data: 'x' })),
    code: 'zip_entry_name_invalid',
  },
  {
    name: 'a duplicate name',
    zip: () => buildZip(withIndex({ name: 'index.html', data: 'second' })),
    code: 'zip_entry_duplicate',
  },
  {
    name: 'a name used as file and folder',
    zip: () => buildZip(withIndex({ name: 'a', data: 'x' }, { name: 'a/b.html', data: 'y' })),
    code: 'zip_entry_duplicate',
  },
  {
    name: 'names equal but for case',
    zip: () => buildZip(withIndex({ name: 'Index.html', data: 'x' })),
    code: 'zip_entry_case_duplicate',
  },
  {
    name: 'folders equal but for case',
    zip: () => buildZip(withIndex({ name: 'Assets/a.png', data: 'x' }, { name: 'assets/b.png', data: 'y' })),
    code: 'zip_entry_case_duplicate',
  },
  {
    name: 'names equal but for Unicode normalisation',
    zip: () => buildZip(withIndex({ name: 'caf\u00e9.html', data: 'x' }, { name: 'cafe\u0301.html', data: 'y' })),
    code: 'zip_entry_case_duplicate',
  },
  {
    name: 'a symbolic link entry',
    zip: () => buildZip(withIndex({ name: 'link', data: '/etc/passwd', method: 0, unixMode: 0o120777 })),
    code: 'zip_entry_symlink',
  },
  {
    name: 'a fifo entry',
    zip: () => buildZip(withIndex({ name: 'pipe', data: '', method: 0, unixMode: 0o010644 })),
    code: 'zip_entry_symlink',
  },
  {
    name: 'more entries than allowed',
    zip: () => buildZip(withIndex(...Array.from({ length: 50 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })))),
    code: 'zip_entry_count_exceeded',
  },
  {
    name: 'a declared total above the limit',
    zip: () => buildZip(withIndex({ name: 'a.bin', data: zeros(1024), declaredSize: 5 * MiB })),
    code: 'zip_declared_size_exceeded',
  },
  {
    name: 'an honest total above the limit',
    zip: () => projectZip({ 'index.html': INDEX, 'a.bin': zeros(3 * MiB), 'b.bin': zeros(2 * MiB) }),
    code: 'zip_declared_size_exceeded',
  },
  {
    name: 'a compression ratio above 100:1',
    zip: () => projectZip({ 'index.html': INDEX, 'bomb.bin': zeros(2 * MiB) }),
    code: 'zip_compression_ratio_exceeded',
  },
  {
    name: 'an entry inflating beyond its declared size',
    zip: () => buildZip(withIndex({ name: 'liar.bin', data: zeros(3 * MiB), declaredSize: 100 })),
    code: 'zip_inflated_size_exceeded',
  },
  {
    name: 'a stored entry larger than declared',
    zip: () => buildZip(withIndex({ name: 'liar.txt', data: 'abcdef', method: 0, declaredSize: 3 })),
    code: 'zip_inflated_size_exceeded',
  },
  {
    name: 'an entry smaller than declared',
    zip: () => buildZip(withIndex({ name: 'short.txt', data: 'abc', declaredSize: 10 })),
    code: 'zip_invalid',
  },
  {
    name: 'a CRC mismatch',
    zip: () => buildZip(withIndex({ name: 'a.txt', data: 'hello', crc: 12345 })),
    code: 'zip_invalid',
  },
  {
    name: 'local and central names that differ',
    zip: () => buildZip(withIndex({ name: 'safe.txt', localName: '../evil.txt', data: 'x' })),
    code: 'zip_invalid',
  },
  {
    name: 'corrupt deflate data',
    zip: () =>
      buildZip(withIndex({ name: 'a.txt', rawBody: new Uint8Array([0xff, 0xff, 0xff, 0xff]), declaredSize: 5 })),
    code: 'zip_invalid',
  },
  {
    name: 'an encrypted entry',
    zip: () => buildZip(withIndex({ name: 'secret.txt', data: 'x', flags: 0x0001 })),
    code: 'zip_unsupported',
  },
  {
    name: 'an unsupported compression method',
    zip: () => buildZip(withIndex({ name: 'a.bz2', data: 'x', method: 12 })),
    code: 'zip_unsupported',
  },
  { name: 'a zip64 archive', zip: () => buildZip(withIndex(), { zip64Locator: true }), code: 'zip_unsupported' },
  {
    name: 'no entry composition',
    zip: () => projectZip({ 'main.html': INDEX }),
    code: 'asset_entry_missing',
    param: 'composition',
  },
  { name: 'an empty archive', zip: () => buildZip([]), code: 'asset_entry_missing', param: 'composition' },
  {
    name: 'an upload above the size limit',
    zip: () => new Uint8Array(2 * MiB + 1),
    code: 'upload_too_large',
    status: 413,
  },
];

describe('POST /v3/assets', () => {
  let test_: TestService;
  before(async () => {
    test_ = await startTestService({ limits: LIMITS });
  });
  after(() => test_.close());

  for (const hostile of HOSTILE) {
    test(`refuses ${hostile.name} with ${hostile.code}, writing nothing`, async () => {
      const response = await test_.api(
        '/v3/assets',
        zipInit(hostile.zip(), { 'idempotency-key': `k-${hostile.code}` }),
      );
      const body = (await response.json()) as { error: { code: string; param: string | null; message: string } };
      assert.equal(body.error.code, hostile.code, body.error.message);
      assert.equal(response.status, hostile.status ?? 422);
      if (hostile.param) assert.equal(body.error.param, hostile.param);
      assert.deepEqual(await test_.storedAssetEntries(), []);
      assert.equal(await test_.count('assets'), 0);
      assert.equal(await test_.count('idempotency_keys'), 0);
    });
  }

  test('refuses a chunked upload above the size limit while streaming', async () => {
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 3 * MiB) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await test_.api('/v3/assets', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body,
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 413);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'upload_too_large');
    assert.deepEqual(await test_.storedAssetEntries(), []);
  });

  test('refuses a body that is not application/zip with 415', async () => {
    const response = await test_.api('/v3/assets', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: projectZip({ 'index.html': INDEX }) as Uint8Array<ArrayBuffer>,
    });
    assert.equal(response.status, 415);
    assert.deepEqual((await response.json()) as unknown, {
      error: {
        code: 'unsupported_media_type',
        message: '"Content-Type" must be "application/zip", got "multipart/form-data"',
        param: 'Content-Type',
      },
    });
  });

  test('refuses a "composition" query that leaves the archive', async () => {
    const response = await test_.api(
      '/v3/assets?composition=../index.html',
      zipInit(projectZip({ 'index.html': INDEX })),
    );
    const body = (await response.json()) as { error: { code: string; param: string } };
    assert.equal(response.status, 400);
    assert.deepEqual([body.error.code, body.error.param], ['parameter_invalid', 'composition']);
  });

  test('stores a valid project and answers 201 with the asset', async () => {
    const files = { 'index.html': INDEX, 'assets/logo.svg': '<svg/>', 'scenes/intro.html': '<template></template>' };
    const response = await test_.api('/v3/assets', zipInit(projectZip(files)));
    assert.equal(response.status, 201);
    const asset = (await response.json()) as {
      asset_id: string;
      composition: string;
      file_count: number;
      size_bytes: number;
      created_at: string;
    };
    assert.match(asset.asset_id, /^ast_[A-Za-z0-9_-]{22}$/);
    assert.equal(asset.composition, 'index.html');
    assert.equal(asset.file_count, 3);
    assert.equal(
      asset.size_bytes,
      Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    );
    assert.ok(!Number.isNaN(Date.parse(asset.created_at)));
    assert.equal(await test_.readStored(`assets/${asset.asset_id}/assets/logo.svg`), '<svg/>');
  });

  test('accepts another entry named by "composition"', async () => {
    const response = await test_.api(
      '/v3/assets?composition=scenes%2Fmain.html',
      zipInit(projectZip({ 'scenes/main.html': INDEX })),
    );
    assert.equal(response.status, 201);
    assert.equal(((await response.json()) as { composition: string }).composition, 'scenes/main.html');
  });

  test('accepts highly compressible small files below the ratio threshold', async () => {
    const response = await test_.api(
      '/v3/assets',
      zipInit(projectZip({ 'index.html': INDEX, 'blank.bin': zeros(512 * 1024) })),
    );
    assert.equal(response.status, 201);
  });
});
