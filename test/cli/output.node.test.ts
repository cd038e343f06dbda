/** Output: progress lines on a terminal, in a pipe and as --json events; errors with their code and hint. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

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
