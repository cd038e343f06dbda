/** `fx init`, `lint`, `metadata`, `types` and `render` (the real renderer: Chromium + FFmpeg) as child processes. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probe } from '../../render/helpers.js';
import { waitFor } from '../../service/helpers/harness.js';
import { eventsOf, fx, tempProject } from '../helpers.js';

const FAST = ['--fps', '4', '--workers', '1'];

describe('fx init, lint, metadata, types, render', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let project: string;
  const env = { PATH: process.env.PATH, HOME: '/nonexistent' };
  const run = (args: string[]) => fx(args, { env, cwd: project });

  before(async () => {
    dir = await tempProject();
    project = join(dir.path, 'starter');
    const init = await fx(['init', project], { env });
    assert.equal(init.code, 0, init.stderr);
  });
  after(() => dir.cleanup());

  test('init writes a starter, and refuses to overwrite one', async () => {
    assert.deepEqual((await readdir(project)).sort(), ['caption.html', 'index.html']);
    const again = await fx(['init', project, '--json'], { env });
    assert.equal(again.code, 3);
    assert.equal(eventsOf(again, 'error')[0]?.code, 'cli_target_exists');
  });

  test('lint: the starter is clean; a broken declaration is an error with its code, exit 3', async () => {
    assert.equal((await run(['lint'])).code, 0);
    const broken = await tempProject({
      'index.html': `<html data-composition-variables='[{"id":"n","type":"number","label":"N","default":"x"}]'><body><div data-composition-id="m" data-width="10" data-height="10" data-duration="1"></div></body></html>`,
    });
    try {
      const linted = await fx(['lint', broken.path, '--json'], { env });
      assert.equal(linted.code, 3);
      assert.ok(
        eventsOf(linted, 'warning').some((finding) => finding.severity === 'error' && finding.file === 'index.html'),
      );
      assert.equal(eventsOf(linted, 'error')[0]?.code, 'cli_lint_failed');
      const rendered = await fx(['render', broken.path, ...FAST], { env, cwd: broken.path });
      assert.equal(rendered.code, 3, 'lint errors stop the render');
      assert.equal(existsSync(join(broken.path, 'renders')), false);
    } finally {
      await broken.cleanup();
    }
  });

  test('lint: a declaration list that is not JSON is placed at its line and column in the file', async () => {
    const html = [
      '<!doctype html>',
      '<div data-composition-id="m" data-width="10" data-height="10" data-duration="1"',
      "  data-composition-variables='[",
      '    {"id": "title", "type": "string", "label": "Title", "default": "Hi"}',
      '    {"id": "size", "type": "number", "label": "Size", "default": 3}',
      "  ]'></div>",
    ].join('\n');
    const broken = await tempProject({ 'index.html': html });
    try {
      const linted = await fx(['lint', broken.path, '--json'], { env });
      const finding = eventsOf(linted, 'warning').find((found) => found.code === 'declaration_json_invalid');
      assert.match(String(finding?.message), /^variable declarations are not valid JSON at line 5, column 5: /);
    } finally {
      await broken.cleanup();
    }
  });

  test('metadata and types take a project folder, as lint and render do (its index.html, or -c)', async () => {
    const ofFile = (await run(['metadata', 'index.html'])).stdout;
    assert.equal((await run(['metadata'])).stdout, ofFile);
    assert.equal((await fx(['metadata', project], { env })).stdout, ofFile);
    const caption = await run(['metadata', '.', '-c', 'caption.html']);
    assert.equal(caption.stdout, (await run(['metadata', 'caption.html'])).stdout);
    assert.equal((await fx(['types', project], { env })).stdout, (await run(['types', 'index.html'])).stdout);
  });

  test('metadata prints the JSON; types prints a TypeScript interface', async () => {
    const metadata = JSON.parse((await run(['metadata', 'index.html'])).stdout) as {
      width: number;
      duration: number;
      variables: { id: string }[];
    };
    assert.deepEqual(
      [metadata.width, metadata.duration, metadata.variables.map((variable) => variable.id)],
      [1280, 3, ['title', 'accent', 'scale']],
    );
    const types = await run(['types', 'index.html', '--name', 'Starter']);
    assert.match(types.stdout, /^export interface Starter \{/);
    assert.match(types.stdout, /\n {2}title\?: string;\n/);
    assert.match(types.stdout, /\n {2}scale\?: number;\n/);
    assert.equal((await run(['types', 'index.html', '--name', 'not valid'])).code, 2);
    assert.equal((await run(['metadata', 'missing.html'])).code, 3);
  });

  test('render: the video at renders/index.mp4, with the values given', async () => {
    const rendered = await run(['render', ...FAST, '--variables', '{"title":"Hi"}', '--json']);
    assert.equal(rendered.code, 0, rendered.stderr + rendered.stdout);
    const result = eventsOf(rendered, 'result')[0]!;
    assert.equal(result.path, join(project, 'renders/index.mp4'));
    const { streams } = await probe(String(result.path));
    assert.equal(Number(streams[0]!.nb_read_frames), 12);
  });

  for (const [name, args, exitCode, code] of [
    [
      'both --variables and --variables-file',
      ['--variables', '{}', '--variables-file', 'v.json'],
      2,
      'cli_flag_invalid',
    ],
    [
      'an undeclared variable with --strict-variables',
      ['--variables', '{"nope":1}', '--strict-variables'],
      3,
      'render_project_invalid',
    ],
    ['a value of the wrong type', ['--variables', '{"scale":"big"}'], 3, 'render_project_invalid'],
    ['fps 0', ['--fps', '0'], 2, 'cli_flag_invalid'],
    ['4k with webm', ['--resolution', '4k', '--format', 'webm'], 2, 'resolution_format_unsupported'],
    ['an unknown flag', ['--codec', 'h265'], 2, 'cli_flag_unknown'],
  ] as const) {
    test(`render refuses ${name} before a browser starts (exit ${exitCode}, ${code})`, async () => {
      const refused = await run(['render', '--json', '-o', 'refused/x.mp4', ...args]);
      assert.equal(refused.code, exitCode, refused.stdout + refused.stderr);
      assert.equal(eventsOf(refused, 'error')[0]?.code, code);
      assert.equal(existsSync(join(project, 'refused')), false);
    });
  }

  test('an undeclared variable without --strict-variables renders, with a warning', async () => {
    const rendered = await run(['render', ...FAST, '--variables', '{"nope":1}', '-o', 'renders/warned.mp4', '--json']);
    assert.equal(rendered.code, 0, rendered.stderr);
    assert.match(String(eventsOf(rendered, 'warning')[0]?.message), /"nope" is not declared/);
  });

  test('batch: every row checked first; a missing placeholder renders nothing', async () => {
    await writeFile(join(project, 'bad.json'), JSON.stringify([{ title: 'A' }, { scale: 2 }]));
    const refused = await run(['render', '--batch', 'bad.json', '-o', 'renders/bad/{title}.mp4', '--json']);
    assert.equal(refused.code, 3);
    assert.equal(eventsOf(refused, 'error')[0]?.code, 'cli_output_invalid');
    assert.equal(existsSync(join(project, 'renders/bad')), false);
  });

  test('batch: manifest.json rewritten as rows end; killed mid-batch, --resume renders only what is missing', async () => {
    await writeFile(
      join(project, 'rows.json'),
      JSON.stringify([{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]),
    );
    const args = ['render', '--batch', 'rows.json', '-o', 'renders/batch/{index}-{title}.mp4', ...FAST];
    const manifestPath = join(project, 'renders/batch/manifest.json');
    const killed = await fx(args, {
      env,
      cwd: project,
      onSpawn: (child, output) => {
        void waitFor(() => (output.stderr().includes('row 0: completed') ? true : undefined), 60_000, 'row 0').then(
          () => child.kill('SIGKILL'),
        );
      },
    });
    assert.equal(killed.signal, 'SIGKILL');
    const partial = JSON.parse(await readFile(manifestPath, 'utf8')) as { rows: { status: string }[] };
    assert.equal(partial.rows[0]!.status, 'completed');
    assert.notEqual(partial.rows[2]!.status, 'completed');
    const first = await stat(join(project, 'renders/batch/0-One.mp4'));

    const resumed = await fx([...args, '--resume', '--json'], { env, cwd: project });
    assert.equal(resumed.code, 0, resumed.stderr);
    const rendered = eventsOf(resumed, 'result')
      .filter((event) => event.stage === 'row')
      .map((event) => event.row);
    assert.ok(!rendered.includes(0), `row 0 is not rendered again: ${rendered}`);
    assert.equal((await stat(join(project, 'renders/batch/0-One.mp4'))).mtimeMs, first.mtimeMs);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
      rows: { row: number; status: string; output: string; variables: unknown; duration_ms: number }[];
    };
    assert.deepEqual(
      manifest.rows.map((row) => row.status),
      ['completed', 'completed', 'completed'],
    );
    assert.deepEqual(manifest.rows[2]!.variables, { title: 'Three' });
    assert.ok(manifest.rows.every((row) => row.duration_ms > 0 && existsSync(join(project, row.output))));
  });

  test('batch --resume: the manifest describes this batch only; changed rows and settings render again', async () => {
    const manifestPath = join(project, 'renders/short/manifest.json');
    const batch = async (rows: Record<string, unknown>[], ...extra: string[]) => {
      await writeFile(join(project, 'short.json'), JSON.stringify(rows));
      const ran = await run(['render', '--batch', 'short.json', '-o', 'renders/short/{index}.mp4', ...FAST, ...extra]);
      assert.equal(ran.code, 0, ran.stderr);
      const rendered = eventsOf(ran, 'result')
        .filter((event) => event.stage === 'row')
        .map((event) => event.row);
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
        rows: { row: number; status: string; variables: Record<string, unknown>; settings: { fps: number } }[];
      };
      return { rendered, manifest: manifest.rows };
    };
    await batch([{ title: 'One' }, { title: 'Two' }, { title: 'Three' }], '--json');
    const shorter = await batch([{ title: 'One' }, { title: 'Deux' }], '--resume', '--json');
    assert.deepEqual(shorter.rendered, [1], 'row 0 kept; row 1 changed its values for the same file');
    assert.deepEqual(
      shorter.manifest.map((row) => [row.row, row.status, row.variables.title]),
      [
        [0, 'completed', 'One'],
        [1, 'completed', 'Deux'],
      ],
    );
    assert.equal(existsSync(join(project, 'renders/short/2.mp4')), true, "an old row's file is left alone");
    const refps = await batch([{ title: 'One' }, { title: 'Deux' }], '--resume', '--json', '--fps', '5');
    assert.deepEqual(refps.rendered, [0, 1], 'other settings: every row again');
    assert.deepEqual(
      refps.manifest.map((row) => row.settings.fps),
      [5, 5],
    );
  });
});
