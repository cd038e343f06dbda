/** The CLI's pure parts: exit codes by error code, output path planning, the types printer. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { FxApiError } from '../../src/client/errors.js';
import { cliError, CliErrorCode, exitCodeOf } from '../../src/cli/errors.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { isInsideFolder } from '../../src/cli/lint.js';
import { planOutputPaths } from '../../src/cli/output-path.js';
import { variablesType } from '../../src/cli/types.js';
import { FxError, isFxError } from '../../src/runtime/errors.js';

describe('exitCodeOf', () => {
  const cases: [string, unknown, number][] = [
    ['a flag refused by the client before sending', new FxApiError('parameter_invalid', 'x'), ExitCode.usage],
    [
      'the same code answered by the service',
      new FxApiError('parameter_invalid', 'x', { status: 400 }),
      ExitCode.invalid,
    ],
    ['4k with alpha', new FxApiError('resolution_format_unsupported', 'x'), ExitCode.usage],
    ['unknown flag', cliError(CliErrorCode.flagUnknown, 'x'), ExitCode.usage],
    ['variables refused', new FxApiError('render_project_invalid', 'x', { status: 422 }), ExitCode.invalid],
    ['a batch row refused', new FxError('batch_rows_refused', 'x'), ExitCode.invalid],
    ['a zip refused', new FxError('zip_entry_symlink', 'x'), ExitCode.invalid],
    ['not signed in', cliError(CliErrorCode.notSignedIn, 'x'), ExitCode.auth],
    ['a 401 without a way to refresh', new FxApiError('auth_required', 'x', { status: 401 }), ExitCode.auth],
    ['no connection', new FxApiError('network_error', 'x'), ExitCode.unavailable],
    ['--max-wait ran out', new FxApiError('timeout', 'x'), ExitCode.unavailable],
    ['Ctrl-C in the client', new FxApiError('aborted', 'x'), ExitCode.interrupted],
    ['Ctrl-C in the renderer', new FxError('render_aborted', 'x'), ExitCode.interrupted],
    ['a failed render', new FxApiError('ffmpeg_failed', 'x'), ExitCode.failed],
    ['a server error', new FxApiError('internal_error', 'x', { status: 500 }), ExitCode.failed],
    ['not an FxError', new TypeError('x'), ExitCode.failed],
  ];
  for (const [name, error, code] of cases) test(`${name} → ${code}`, () => assert.equal(exitCodeOf(error), code));
});

describe('planOutputPaths', () => {
  const plan = (template: string, rows: Record<string, unknown>[]) =>
    planOutputPaths(template, rows, { ext: 'mp4' }, ['render_id']);
  const code = (work: () => unknown) => {
    try {
      work();
      return 'ok';
    } catch (error) {
      return isFxError(error) ? error.code : String(error);
    }
  };

  test('fills {index}, {ext} and row keys; keeps {render_id} for later', () => {
    assert.deepEqual(plan('out/{index}-{title}.{ext}', [{ title: 'A' }, { title: 'B' }]), [
      'out/0-A.mp4',
      'out/1-B.mp4',
    ]);
    assert.deepEqual(plan('out/{render_id}.{ext}', [{}, {}]), ['out/{render_id}.mp4', 'out/{render_id}.mp4']);
  });

  test("{name} is the row's name, else the entry's; a variable named as a built-in placeholder is refused where used", () => {
    const withName = (rows: Record<string, unknown>[], template = 'out/{index}-{name}.mp4') =>
      planOutputPaths(template, rows, { ext: 'mp4', name: 'index' }, ['render_id']);
    assert.deepEqual(withName([{ name: 'Ada' }, { title: 'B' }]), ['out/0-Ada.mp4', 'out/1-index.mp4']);
    assert.equal(
      code(() => plan('out/{name}.mp4', [{}])),
      'cli_output_invalid',
      'no entry name (a URL render)',
    );
    for (const builtIn of ['index', 'ext', 'render_id']) {
      const template = `out/{${builtIn}}-{title}.mp4`;
      assert.equal(
        code(() => plan(template, [{ title: 'a', [builtIn]: 'x' }])),
        'cli_output_invalid',
        builtIn,
      );
    }
    assert.deepEqual(plan('out/{title}.mp4', [{ title: 'a', index: 'x' }]), ['out/a.mp4'], 'unused: no conflict');
  });

  test('a value never leaves its path segment, and is never read as a placeholder', () => {
    assert.deepEqual(
      plan('out/{title}.mp4', [
        { title: '../../etc/passwd' },
        { title: 'a\\b:c' },
        { title: 'nul\0line\nbell\x07del\x7f' },
        { title: '<>|*?"' },
        { title: '{index}' },
        { title: 'x{render_id}' },
        { title: 'Ünïcødé ✓' },
      ]),
      [
        'out/.._.._etc_passwd.mp4',
        'out/a_b_c.mp4',
        'out/nul_line_bell_del_.mp4',
        'out/______.mp4',
        'out/_index_.mp4',
        'out/x_render_id_.mp4',
        'out/Ünïcødé ✓.mp4',
      ],
    );
  });

  for (const [name, template, rows] of [
    ['a missing key', 'out/{title}.mp4', [{ title: 'A' }, {}]],
    ['an object value', 'out/{title}.mp4', [{ title: { a: 1 } }]],
    ['a null value', 'out/{title}.mp4', [{ title: null }]],
    ['two rows, one file', 'out/{title}.mp4', [{ title: 'A' }, { title: 'A' }]],
    ['no placeholder in a batch', 'out/video.mp4', [{}, {}]],
    ['an empty value', 'out/{title}.mp4', [{ title: '' }]],
    ['a value naming this folder', 'out/{title}/x.mp4', [{ title: '.' }]],
    ['a value naming the parent folder', 'out/{title}/x.mp4', [{ title: '..' }]],
    ['a value of dots only', 'out/{title}/x.mp4', [{ title: '...' }]],
    ['a file name over 255 bytes', 'out/{title}.mp4', [{ title: 'é'.repeat(126) }]],
    ['two values escaped to one path', 'out/{title}.mp4', [{ title: 'a/b' }, { title: 'a:b' }]],
  ] as const) {
    test(`refuses ${name}`, () =>
      assert.equal(
        code(() => plan(template, rows as unknown as Record<string, unknown>[])),
        'cli_output_invalid',
      ));
  }
});

test('variablesType: every declared type, optional fields, odd ids quoted, comments closed safely', () => {
  const source = variablesType(
    [
      { id: 'title', type: 'string', label: 'Title */ evil', default: 'x' },
      { id: 'n', type: 'number', label: 'N', default: 1 },
      { id: 'on', type: 'boolean', label: 'On', default: true },
      { id: 'c', type: 'color', label: 'C', default: '#fff' },
      {
        id: 'mode',
        type: 'enum',
        label: 'Mode',
        default: 'a',
        options: [
          { value: 'a', label: 'A' },
          { value: 'b"', label: 'B' },
        ],
      },
      { id: 'font', type: 'font', label: 'Font', default: 'Inter' },
      { id: 'logo', type: 'image', label: 'Logo', default: 'logo.svg' },
      { id: 'my-id', type: 'string', label: 'Dash', default: '' },
    ],
    'V',
  );
  for (const line of [
    'title?: string;',
    'n?: number;',
    'on?: boolean;',
    'c?: string;',
    'mode?: "a" | "b\\"";',
    'font?: string | { name: string; source?: string };',
    'logo?: string | { url: string };',
    '"my-id"?: string;',
  ]) {
    assert.ok(source.includes(`  ${line}\n`), `${line} in\n${source}`);
  }
  assert.doesNotMatch(source, /Title \*\/ evil/);
});

describe('Output', () => {
  const streams = (isTTY: boolean) => {
    const text = { stdout: '', stderr: '' };
    const stream = (name: 'stdout' | 'stderr') =>
      ({
        isTTY,
        columns: 80,
        write: (chunk: string) => ((text[name] += chunk), true),
      }) as unknown as NodeJS.WritableStream & { isTTY: boolean };
    return { text, io: { stdout: stream('stdout'), stderr: stream('stderr') } };
  };

  test('on a terminal: one redrawn line with a bar, colour unless NO_COLOR', async () => {
    const { Output } = await import('../../src/cli/output.js');
    const tty = streams(true);
    const out = new Output(tty.io, { json: false, env: {} });
    out.progress('uploading', 'Uploading 50%', 0.5);
    out.progress('uploading', 'Uploading 60%', 0.6);
    out.error('cli_flag_invalid', 'bad', 'a hint', 2);
    assert.match(
      tty.text.stderr,
      /^\r\x1b\[2KUploading 50% · 0:00 elapsed \[#+-+\]\r\x1b\[2KUploading 60% · 0:00 elapsed \[#+-+\]\n/,
    );
    assert.match(tty.text.stderr, /\x1b\[31mcli_flag_invalid\x1b\[39m: bad/);
    const plain = streams(true);
    new Output(plain.io, { json: false, env: { NO_COLOR: '1' } }).error('cli_flag_invalid', 'bad', undefined, 2);
    assert.equal(plain.text.stderr, 'cli_flag_invalid: bad\n');
  });

  test('a long stage says how long it has run and about how long is left, in the line and the event', async () => {
    const { Output } = await import('../../src/cli/output.js');
    let now = 0;
    const pipe = streams(false);
    const out = new Output(pipe.io, { json: false, env: {}, now: () => now });
    const json = streams(false);
    const machine = new Output(json.io, { json: true, env: {}, now: () => now });
    for (const [at, fraction] of [
      [0, 0],
      [30_000, 0.25],
      [75_000, 0.5],
    ] as const) {
      now = at;
      out.progress(
        'capturing',
        `capturing ${fraction * 100}%`,
        fraction,
        {},
        { frames_done: fraction * 400, frames_total: 400 },
      );
      machine.progress('capturing', '', fraction, { row: 1 }, { frames_done: fraction * 400, frames_total: 400 });
    }
    assert.deepEqual(pipe.text.stderr.trim().split('\n'), [
      'capturing 0% · 0:00 elapsed',
      'capturing 25% · 0:30 elapsed, about 1:30 left',
      'capturing 50% · 1:15 elapsed, about 1:15 left',
    ]);
    const events = json.text.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(events[2], {
      event: 'progress',
      stage: 'capturing',
      fraction: 0.5,
      elapsed_s: 75,
      eta_s: 75,
      frames_done: 200,
      frames_total: 400,
      row: 1,
    });
    assert.equal(events.length, 3, 'frame counts do not make an event each');
  });

  test('clock text: minutes and seconds, hours once past an hour', async () => {
    const { clockText } = await import('../../src/cli/stage-timing.js');
    assert.deepEqual([0, 7_400, 723_000, 3_723_000].map(clockText), ['0:00', '0:07', '12:03', '1:02:03']);
  });

  test('without a terminal: a line per stage and per 10 %; --json: the same as events, stdout only', async () => {
    const { Output } = await import('../../src/cli/output.js');
    const pipe = streams(false);
    const out = new Output(pipe.io, { json: false, env: {} });
    for (const fraction of [0, 0.01, 0.05, 0.1, 0.15, 1])
      out.progress('uploading', `Uploading ${fraction * 100}%`, fraction);
    assert.deepEqual(
      pipe.text.stderr.trim().split('\n'),
      ['Uploading 0%', 'Uploading 10%', 'Uploading 100%'].map((label) => `${label} · 0:00 elapsed`),
    );
    const json = streams(false);
    const machine = new Output(json.io, { json: true, env: {} });
    machine.progress('queued', 'Queued', undefined);
    machine.line('not in json');
    assert.equal(json.text.stdout, '{"event":"progress","stage":"queued"}\n');
    assert.equal(json.text.stderr, '');
  });
});

describe('isInsideFolder (fx lint reads sub-compositions only inside the project)', () => {
  const cases: [string, path.PlatformPath, string, string, boolean][] = [
    ['a file in the folder', path.posix, '/p', '/p/a.html', true],
    ['a file in a sub-folder', path.posix, '/p', '/p/sub/a.html', true],
    ['a name starting with dots', path.posix, '/p', '/p/..a.html', true],
    ['the parent', path.posix, '/p', '/a.html', false],
    ['a sibling sharing the prefix', path.posix, '/p', '/p-evil/a.html', false],
    ['the folder itself', path.posix, '/p', '/p', false],
    ['Windows: a file in a sub-folder', path.win32, 'C:\\p', 'C:\\p\\sub\\a.html', true],
    ['Windows: forward slashes', path.win32, 'C:\\p', 'C:/p/sub/a.html', true],
    ['Windows: another case of the drive', path.win32, 'C:\\p', 'c:\\p\\a.html', true],
    ['Windows: the parent', path.win32, 'C:\\p', 'C:\\a.html', false],
    ['Windows: a sibling sharing the prefix', path.win32, 'C:\\p', 'C:\\p-evil\\a.html', false],
    ['Windows: another drive', path.win32, 'C:\\p', 'D:\\p\\a.html', false],
  ];
  for (const [name, paths, root, target, inside] of cases)
    test(`${name}: ${inside}`, () => assert.equal(isInsideFolder(root, target, paths), inside));
});
