/** `fx cloud …` as a child process against the real reference service (FFmpeg test renderer). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probe } from '../../render/helpers.js';
import { startClientSetup, type ClientSetup } from '../../client/helpers/setup.js';
import { FAIL_MARKER } from '../../service/helpers/ffmpeg-renderer.js';
import { compositionHtml, TITLE_DECLARATIONS, waitFor } from '../../service/helpers/harness.js';
import { baseEnv, eventsOf, fx, tempProject } from '../helpers.js';

const HTML = compositionHtml({ variables: TITLE_DECLARATIONS, duration: 0.5 });
const FAST = ['--poll-interval', '0.05'];

describe('fx cloud', () => {
  let setup: ClientSetup;
  let project: { path: string; cleanup: () => Promise<void> };
  let env: Record<string, string | undefined>;
  const counts = async () => ({
    renders: await setup.service.count('renders'),
    assets: await setup.service.count('assets'),
  });

  before(async () => {
    setup = await startClientSetup();
    project = await tempProject({
      'index.html': HTML,
      'styles/site.css': 'h1 { color: red }',
      '.git/HEAD': 'ref',
      'node_modules/x/index.js': '1',
    });
    env = baseEnv(project.path, { CLOUD_API_URL: setup.proxy.url, CLOUD_API_KEY: setup.service.key });
  });
  after(async () => {
    await setup.close();
    await project.cleanup();
  });

  test('cloud render: zip, upload, submit, poll, download to renders/<render_id>.mp4; --json is NDJSON with every stage', async () => {
    const run = await fx(['cloud', 'render', '--json', ...FAST, '--fps', '24', '--variables', '{"title":"Hi"}'], {
      env,
      cwd: project.path,
    });
    assert.equal(run.code, 0, run.stderr);
    const stages = [...new Set(eventsOf(run, 'progress').map((event) => event.stage))];
    assert.deepEqual(stages.slice(0, 3), ['zipping', 'uploading', 'queued']);
    assert.ok(stages.includes('downloading'), `stages: ${stages}`);
    const done = eventsOf(run, 'result').find((event) => event.stage === 'downloaded')!;
    assert.match(String(done.path), /^renders\/rnd_[A-Za-z0-9_-]+\.mp4$/);
    const { streams } = await probe(join(project.path, String(done.path)));
    assert.equal(Number(streams[0]!.nb_read_frames), 12);
    assert.deepEqual((done.render as { variables: unknown }).variables, { title: 'Hi' });
    assert.equal(
      run.stdout
        .split('\n')
        .filter(Boolean)
        .every((line) => line.startsWith('{')),
      true,
      'stdout holds events only',
    );
  });

  test('a render that fails at the service: exit 1 with its failure code, as the client reports it; no file', async () => {
    const broken = await tempProject({ 'index.html': compositionHtml({ extra: FAIL_MARKER }) });
    try {
      const run = await fx(['cloud', 'render', '--json', ...FAST], { env, cwd: broken.path });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const [error] = eventsOf(run, 'error');
      assert.equal(error?.code, 'composition_broken');
      assert.match(String(error?.message), /^render rnd_[A-Za-z0-9_-]+ failed: /);
      assert.equal(existsSync(join(broken.path, 'renders')), false);
    } finally {
      await broken.cleanup();
    }
  });

  test('human output: the path on stdout, progress lines on stderr, no colour codes without a terminal', async () => {
    const run = await fx(
      [
        'cloud',
        'render',
        ...FAST,
        '-o',
        'renders/{title}-{render_id}.{ext}',
        '--variables',
        '{"title":"Yo"}',
        '--format',
        'webm',
      ],
      { env, cwd: project.path },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout.trim(), /^renders\/Yo-rnd_[A-Za-z0-9_-]+\.webm$/);
    assert.match(run.stderr, /Uploading 100%/);
    assert.doesNotMatch(run.stderr, /\x1b\[/);
    assert.ok(existsSync(join(project.path, run.stdout.trim())));
  });

  test('--dry-run lists the files that would upload (ignore set applied) first, without a credential', async () => {
    const before = await counts();
    const run = await fx(['cloud', 'render', project.path, '--dry-run', '--json'], {
      env: { PATH: process.env.PATH, HOME: project.path },
    });
    const [result] = eventsOf(run, 'result');
    assert.equal(result!.stage, 'files');
    assert.deepEqual((result!.files as { path: string }[]).map((file) => file.path).sort(), [
      'index.html',
      'styles/site.css',
    ]);
    assert.equal(result!.total_bytes, Buffer.byteLength(HTML) + Buffer.byteLength('h1 { color: red }'));
    // Then the service's dry run, which needs one.
    assert.equal(run.code, 4, run.stderr);
    assert.equal(eventsOf(run, 'error')[0]?.code, 'cli_not_signed_in');
    assert.deepEqual(await counts(), before);
  });

  const refusals: [string, string[], number, string][] = [
    ['fps 0', ['--fps', '0'], 2, 'cli_flag_invalid'],
    ['fps 241', ['--fps', '241'], 2, 'cli_flag_invalid'],
    ['fps not a number', ['--fps', 'ten'], 2, 'cli_flag_invalid'],
    ['4k with webm', ['--resolution', '4k', '--format', 'webm'], 2, 'resolution_format_unsupported'],
    ['4k with mov', ['--resolution', '4k', '--format', 'mov'], 2, 'resolution_format_unsupported'],
    ['bad idempotency key', ['--idempotency-key', 'has space'], 2, 'idempotency_key_invalid'],
    ['http callback', ['--callback-url', 'http://example.com/hook'], 2, 'callback_url_insecure'],
    ['--variables and --variables-file', ['--variables', '{}', '--variables-file', 'v.json'], 2, 'cli_flag_invalid'],
    ['--asset-id and --url', ['--asset-id', 'ast_1', '--url', 'https://example.com'], 2, 'cli_flag_invalid'],
    ['unknown flag', ['--fsp', '30'], 2, 'cli_flag_unknown'],
    ['bad quality', ['--quality', 'ultra'], 2, 'cli_flag_invalid'],
    ['variables not an object', ['--variables', '[1]'], 3, 'cli_variables_invalid'],
    ['variables not JSON', ['--variables', '{title:'], 3, 'cli_variables_invalid'],
    ['a value of the wrong type', ['--variables', '{"speed":"fast"}'], 3, 'render_project_invalid'],
    [
      'undeclared variable with --strict-variables',
      ['--variables', '{"nope":1}', '--strict-variables'],
      3,
      'render_project_invalid',
    ],
    ['--output naming a key the values lack', ['-o', 'out/{missing}.mp4'], 3, 'cli_output_invalid'],
    ['gif at 4k', ['--format', 'gif', '--resolution', '4k'], 2, 'resolution_format_unsupported'],
    ['--metadata not JSON', ['--metadata', '{order:'], 3, 'cli_metadata_invalid'],
    ['--metadata not an object', ['--metadata', '["A-17"]'], 3, 'cli_metadata_invalid'],
    ['--metadata over 4 KiB', ['--metadata', JSON.stringify({ note: 'x'.repeat(4100) })], 2, 'metadata_too_large'],
    ['--metadata 5 levels deep', ['--metadata', '{"a":{"b":{"c":{"d":{"e":1}}}}}'], 2, 'metadata_too_deep'],
    ['--dry-run with --batch', ['--dry-run', '--batch', 'rows.json'], 2, 'cli_flag_ignored'],
    ['--dry-run with --no-wait', ['--dry-run', '--no-wait'], 2, 'cli_flag_ignored'],
  ];
  for (const [name, args, exitCode, code] of refusals) {
    test(`refused before any request: ${name} → exit ${exitCode}, ${code}`, async () => {
      const before = await counts();
      const run = await fx(['cloud', 'render', '--json', ...args], { env, cwd: project.path });
      assert.equal(run.code, exitCode, run.stdout + run.stderr);
      const [error] = eventsOf(run, 'error');
      assert.equal(error?.code, code);
      assert.equal(error?.exit_code, exitCode);
      assert.deepEqual(await counts(), before, 'nothing uploaded or submitted');
    });
  }

  test('an error prints "code: message" and a hint on stderr', async () => {
    const run = await fx(['cloud', 'render', '--fps', '0'], { env, cwd: project.path });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^cli_flag_invalid: "--fps" must be an integer from 1 to 240, got "0"\nhint: /m);
    assert.equal(run.stdout, '');
  });

  test('an undeclared variable without --strict-variables renders, with a warning', async () => {
    const run = await fx(['cloud', 'render', '--no-wait', '--json', '--variables', '{"nope":1}'], {
      env,
      cwd: project.path,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(String(eventsOf(run, 'warning')[0]?.message), /"nope" is not declared/);
  });

  test('--no-wait prints the render_id; cloud get shows it; cloud get --download saves it', async () => {
    const submitted = await fx(['cloud', 'render', '--no-wait', '--idempotency-key', 'cli-test-1'], {
      env,
      cwd: project.path,
    });
    assert.equal(submitted.code, 0, submitted.stderr);
    const id = submitted.stdout.trim();
    assert.match(id, /^rnd_/);
    await waitFor(
      async () =>
        ((await (await setup.service.api(`/v3/renders/${id}`)).json()) as { status: string }).status === 'completed' ||
        undefined,
    );
    const shown = await fx(['cloud', 'get', id, '--json'], { env });
    assert.equal((eventsOf(shown, 'result')[0]!.render as { status: string }).status, 'completed');
    // The same key again: the same render, nothing new.
    const again = await fx(['cloud', 'render', '--no-wait', '--idempotency-key', 'cli-test-1'], {
      env,
      cwd: project.path,
    });
    assert.equal(again.stdout.trim(), id, again.stderr);
    const downloaded = await fx(['cloud', 'get', id, '--download', '-o', 'renders/got/{render_id}.{ext}'], {
      env,
      cwd: project.path,
    });
    assert.equal(downloaded.code, 0, downloaded.stderr);
    assert.ok(existsSync(join(project.path, 'renders', 'got', `${id}.mp4`)));
  });

  test("--batch rows.json: one render per row, {key} and {index} in --output (a value's braces escaped, never a placeholder), manifest.json next to the outputs", async () => {
    await writeFile(
      join(project.path, 'rows.json'),
      JSON.stringify([{ title: 'One' }, { title: 'T{wo}', theme: 'light' }]),
    );
    const run = await fx(
      [
        'cloud',
        'render',
        ...FAST,
        '--batch',
        'rows.json',
        '--batch-concurrency',
        '2',
        '-o',
        'renders/batch/{index}-{title}.{ext}',
      ],
      { env, cwd: project.path },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((await readdir(join(project.path, 'renders/batch'))).sort(), [
      '0-One.mp4',
      '1-T_wo_.mp4',
      'manifest.json',
    ]);
    const manifest = JSON.parse(await readFile(join(project.path, 'renders/batch/manifest.json'), 'utf8')) as {
      rows: { status: string; output: string; variables: unknown }[];
    };
    assert.deepEqual(
      manifest.rows.map((row) => [row.status, row.output]),
      [
        ['completed', 'renders/batch/0-One.mp4'],
        ['completed', 'renders/batch/1-T_wo_.mp4'],
      ],
    );
    assert.deepEqual(manifest.rows[1]!.variables, { title: 'T{wo}', theme: 'light' });
  });

  test('--batch rows.csv: cells typed by the declarations', async () => {
    await writeFile(join(project.path, 'rows.csv'), 'title,speed\nA,2\nB,3\n');
    const run = await fx(
      ['cloud', 'render', ...FAST, '--batch', 'rows.csv', '-o', 'renders/csv/{title}.mp4', '--json'],
      { env, cwd: project.path },
    );
    assert.equal(run.code, 0, run.stderr);
    const rows = eventsOf(run, 'result').filter((event) => event.stage === 'row');
    assert.deepEqual(rows.map((row) => (row.variables as { speed: unknown }).speed).sort(), [2, 3]);
  });

  for (const [name, rows, output, code] of [
    ['a placeholder a row lacks', [{ title: 'A' }, {}], 'renders/b/{title}.mp4', 'cli_output_invalid'],
    ['a non-scalar placeholder value', [{ title: 'A', theme: 'dark' }], 'renders/b/{extra}.mp4', 'cli_output_invalid'],
    ['two rows, one path', [{ title: 'A' }, { title: 'A' }], 'renders/b/{title}.mp4', 'cli_output_invalid'],
    [
      'a value naming a parent folder',
      [{ title: 'A' }, { title: '..' }],
      'renders/b/{title}/x.mp4',
      'cli_output_invalid',
    ],
    [
      'a row refused by --strict-variables',
      [{ title: 'A' }, { nope: 1 }],
      'renders/b/{index}.mp4',
      'batch_rows_refused',
    ],
  ] as const) {
    test(`--batch with ${name}: nothing uploaded or rendered`, async () => {
      const withExtra = (rows as readonly Record<string, unknown>[]).map((row) =>
        name.includes('non-scalar') ? { ...row, extra: { nested: true } } : row,
      );
      await writeFile(join(project.path, 'bad-rows.json'), JSON.stringify(withExtra));
      const before = await counts();
      const run = await fx(
        ['cloud', 'render', '--json', '--batch', 'bad-rows.json', '-o', output, '--strict-variables'],
        { env, cwd: project.path },
      );
      assert.equal(run.code, 3, run.stdout + run.stderr);
      assert.equal(eventsOf(run, 'error')[0]?.code, code);
      assert.deepEqual(await counts(), before);
      assert.equal(existsSync(join(project.path, 'renders/b')), false);
    });
  }

  test('cloud list: --limit pages with a token, --token takes the next page, --all lists everything', async () => {
    const first = await fx(['cloud', 'list', '--limit', '1', '--json'], { env });
    const page = eventsOf(first, 'result')[0] as { renders: { render_id: string }[]; next_token: string };
    assert.equal(page.renders.length, 1);
    assert.ok(page.next_token);
    const second = await fx(['cloud', 'list', '--limit', '1', '--token', page.next_token, '--json'], { env });
    const next = eventsOf(second, 'result')[0] as { renders: { render_id: string }[] };
    assert.notEqual(next.renders[0]!.render_id, page.renders[0]!.render_id);
    const all = await fx(['cloud', 'list', '--all', '--limit', '2'], { env });
    assert.equal(all.stdout.trim().split('\n').length, (await counts()).renders);
    assert.equal((await fx(['cloud', 'list', '--limit', '0'], { env })).code, 2);
  });

  test('cloud delete refuses to prompt without a terminal; --yes deletes; the render is then gone', async () => {
    const id = (await fx(['cloud', 'render', '--no-wait'], { env, cwd: project.path })).stdout.trim();
    const refused = await fx(['cloud', 'delete', id, '--json'], { env });
    assert.equal(refused.code, 2);
    assert.equal(eventsOf(refused, 'error')[0]?.code, 'cli_prompt_unavailable');
    const deleted = await fx(['cloud', 'delete', id, '--yes'], { env });
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = await fx(['cloud', 'get', id, '--json'], { env });
    assert.equal(gone.code, 3);
    assert.equal(eventsOf(gone, 'error')[0]?.code, 'render_not_found');
  });

  test('credentials: CLOUD_API_KEY before RENDER_API_KEY before the file; none → exit 4 with a hint', async () => {
    const home = project.path;
    const base = { CLOUD_API_URL: setup.proxy.url };
    const good = setup.service.key;
    const bad = 'fx_live_wrong';
    const status = async (extra: Record<string, string>) =>
      fx(['auth', 'status', '--json'], { env: baseEnv(home, { ...base, ...extra }) });
    assert.equal((await status({ CLOUD_API_KEY: bad, RENDER_API_KEY: good })).code, 4, 'CLOUD_API_KEY wins');
    assert.equal(eventsOf(await status({ RENDER_API_KEY: good }), 'result')[0]?.source, 'RENDER_API_KEY');
    const none = await fx(['cloud', 'list'], { env: baseEnv(join(home, 'empty-home'), base) });
    assert.equal(none.code, 4);
    assert.match(none.stderr, /^cli_not_signed_in: .*\nhint: run `fx auth login`/m);
  });

  test('auth login --api-key from stdin writes ~/.fx/credentials with mode 0600; the file is used after the env', async () => {
    const home = join(project.path, 'home-key');
    const login = await fx(['auth', 'login', '--api-key'], {
      env: baseEnv(home, { CLOUD_API_URL: setup.proxy.url }),
      input: `${setup.service.key}\n`,
    });
    assert.equal(login.code, 0, login.stderr);
    const { stat } = await import('node:fs/promises');
    const file = join(home, '.fx', 'credentials');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal(JSON.parse(await readFile(file, 'utf8'))['api-key'], setup.service.key);
    // No env: the file's key and the file's service URL.
    const fromFile = await fx(['auth', 'status', '--json'], { env: baseEnv(home) });
    assert.equal(eventsOf(fromFile, 'result')[0]?.source, 'file', fromFile.stdout + fromFile.stderr);
    const envWins = await fx(['auth', 'status', '--json'], {
      env: baseEnv(home, { CLOUD_API_KEY: 'fx_live_wrong', CLOUD_API_URL: setup.proxy.url }),
    });
    assert.equal(envWins.code, 4);
    const bad = await fx(['auth', 'login', '--api-key'], { env: baseEnv(home), input: 'has space\n' });
    assert.equal(bad.code, 4);
    assert.equal(
      JSON.parse(await readFile(file, 'utf8'))['api-key'],
      setup.service.key,
      'a refused key leaves the file as it was',
    );
    const logout = await fx(['auth', 'logout'], { env: baseEnv(home) });
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal(JSON.parse(await readFile(file, 'utf8'))['api-key'], undefined);
  });

  test('--callback-url with --no-wait: the webhook reaches a local receiver with the --callback-id', async () => {
    const received: Record<string, unknown>[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const run = await fx(['cloud', 'render', '--no-wait', '--callback-url', hook, '--callback-id', 'job-7'], {
        env,
        cwd: project.path,
      });
      assert.equal(run.code, 0, run.stderr);
      const delivery = await waitFor(() => received[0], 15_000, 'the webhook');
      assert.match(JSON.stringify(delivery), /"job-7"/);
      assert.match(JSON.stringify(delivery), new RegExp(run.stdout.trim()));
    } finally {
      receiver.close();
    }
  });

  test('--asset-id renders an uploaded asset without zipping or uploading; 16:9 unless set', async () => {
    const [{ asset_id: assetId }] = (await setup.service.rows(
      // The first project uploaded renders (a later test uploads one that fails on purpose).
      'SELECT id AS asset_id FROM assets ORDER BY created_at, rowid LIMIT 1',
    )) as [{ asset_id: string }];
    const before = await counts();
    const run = await fx(['cloud', 'render', '--asset-id', assetId, ...FAST, '--json'], { env, cwd: project.path });
    assert.equal(run.code, 0, run.stderr);
    const render = eventsOf(run, 'result').find((event) => event.stage === 'downloaded')!.render as {
      asset_id: string;
      aspect_ratio: string;
    };
    assert.deepEqual([render.asset_id, render.aspect_ratio], [assetId, '16:9']);
    assert.equal((await counts()).assets, before.assets);
    assert.ok(!eventsOf(run, 'progress').some((event) => event.stage === 'uploading'));
  });
});
