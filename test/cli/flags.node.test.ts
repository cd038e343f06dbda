/**
 * Flags as the parsers take them: combinations in which a flag would be silently ignored are usage errors
 * (`cli_flag_ignored`, exit 2), and `fx render` / `fx cloud render` read their shared flags one way.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommandArgs } from '../../src/cli/args.js';
import { cloudRenderOptions } from '../../src/cli/commands/cloud-flags.js';
import type { CommandContext } from '../../src/cli/command.js';
import { findCommand } from '../../src/cli/commands.js';
import { exitCodeOf } from '../../src/cli/errors.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { renderSettings } from '../../src/cli/commands/render-flags.js';
import { isFxError } from '../../src/runtime/errors.js';
import { eventsOf, fx } from './helpers.js';

async function parse(argv: readonly string[]) {
  const found = findCommand(argv)!;
  const { command } = await found.entry.load();
  return parseCommandArgs(command, found.rest);
}

async function refusal(argv: readonly string[]) {
  try {
    await parse(argv);
    return undefined;
  } catch (error) {
    assert.ok(isFxError(error), String(error));
    return error;
  }
}

describe('a flag that would be ignored is a usage error', () => {
  const cases: [string[], RegExp][] = [
    [['render', '--resume'], /--resume has no effect without --batch/],
    [['render', '--batch-concurrency', '2'], /--batch-concurrency has no effect without --batch/],
    [['cloud', 'render', '--batch-concurrency', '2'], /--batch-concurrency has no effect without --batch/],
    [['cloud', 'render', 'dir', '--asset-id', 'ast_1'], /--asset-id has no effect with \[project_dir\]/],
    [['cloud', 'render', 'dir', '--url', 'https://example.com'], /--url has no effect with \[project_dir\]/],
    [['cloud', 'render', '--url', 'https://example.com', '-c', 'a.html'], /--composition has no effect with --url/],
    [['cloud', 'render', '--no-wait', '-o', 'x.mp4'], /--output has no effect with --no-wait: nothing is downloaded/],
    [['cloud', 'render', '--no-wait', '--batch', 'r.json', '-o', '{index}.mp4'], /--output has no effect/],
    [['cloud', 'render', '--no-wait', '--poll-interval', '1'], /--poll-interval has no effect with --no-wait/],
    [['cloud', 'render', '--no-wait', '--max-wait', '1'], /--max-wait has no effect with --no-wait/],
    [['cloud', 'get', 'rnd_1', '-o', 'x.mp4'], /--output has no effect without --download/],
    [['auth', 'login', '--api-key', '--no-browser'], /--no-browser has no effect with --api-key/],
    [['auth', 'login', '--api-key', '--timeout', '5'], /--timeout has no effect with --api-key/],
  ];
  for (const [argv, message] of cases) {
    test(`fx ${argv.join(' ')}`, async () => {
      const error = await refusal(argv);
      assert.equal(error?.code, 'cli_flag_ignored');
      assert.match(error.message, message);
      assert.equal(exitCodeOf(error), ExitCode.usage);
    });
  }

  for (const argv of [
    ['render', '--batch', 'r.json', '--resume', '--batch-concurrency', '2'],
    ['cloud', 'render', '--no-wait', '--batch', 'r.json', '--batch-concurrency', '2'],
    ['cloud', 'render', '--asset-id', 'ast_1', '-c', 'a.html'],
    ['cloud', 'render', 'dir', '-o', 'x.mp4', '--max-wait', '5'],
    ['cloud', 'get', 'rnd_1', '--download', '-o', 'x.mp4'],
    ['auth', 'login', '--no-browser', '--timeout', '5'],
  ]) {
    test(`still taken: fx ${argv.join(' ')}`, async () => assert.equal(await refusal(argv), undefined));
  }

  test('end to end: exit 2 with the code and a hint, before anything runs', async () => {
    const run = await fx(['render', 'no-such-dir', '--resume', '--json']);
    assert.equal(run.code, 2);
    const [error] = eventsOf(run, 'error');
    assert.equal(error?.code, 'cli_flag_ignored');
    assert.ok(error?.hint);
  });
});

test('fx render and fx cloud render read the shared flags one way (--aspect-ratio auto included)', async () => {
  const argv = ['--fps', '24', '--quality', 'high', '--format', 'webm', '--resolution', '1080p', '--aspect-ratio'];
  for (const aspect of ['auto', '9:16']) {
    const context = async (words: string[]) =>
      ({
        ...(await parse([...words, ...argv, aspect])),
        signal: new AbortController().signal,
      }) as unknown as CommandContext;
    const local = renderSettings(await context(['render']));
    const cloud = cloudRenderOptions(await context(['cloud', 'render']));
    for (const key of ['fps', 'quality', 'format', 'resolution', 'aspectRatio'] as const)
      assert.equal(local[key], cloud[key], `${key} with --aspect-ratio ${aspect}`);
    assert.equal(local.aspectRatio, aspect === 'auto' ? undefined : aspect);
  }
});

test('fx render reads --time, --thumbnail-time, --range and --no-loop; a GIF defaults to 15 fps', async () => {
  const settings = async (words: string[]) =>
    renderSettings({
      ...(await parse(['render', ...words])),
      signal: new AbortController().signal,
    } as unknown as CommandContext);
  const still = await settings(['--format', 'png', '--time', '2.5']);
  assert.deepEqual([still.time, still.fps, still.range], [2.5, 30, undefined]);
  const gif = await settings(['--format', 'gif', '--range', '1.5:4', '--thumbnail-time', '.5', '--no-loop']);
  assert.deepEqual([gif.fps, gif.range, gif.thumbnailTime, gif.loop], [15, { start: 1.5, end: 4 }, 0.5, false]);
  assert.equal((await settings(['--format', 'gif'])).loop, undefined, 'the renderer loops by default');
  assert.equal((await settings(['--format', 'gif', '--fps', '30'])).fps, 30);
  for (const words of [
    ['--format', 'gif', '--fps', '31'],
    ['--range', '1,5:4'],
    ['--range', ':4'],
    ['--format', 'jpeg', '--time', '1e3'],
    ['--format', 'jpeg', '--time', '86401'],
  ]) {
    await assert.rejects(settings(words), (error) => isFxError(error) && error.code === 'cli_flag_invalid');
  }
});

test('fx render and fx cloud render read --time, --thumbnail-time, --range and --no-loop one way', async () => {
  const context = async (words: string[]) =>
    ({ ...(await parse(words)), signal: new AbortController().signal }) as unknown as CommandContext;
  for (const argv of [
    ['--format', 'gif', '--range', '1:2.5', '--thumbnail-time', '2', '--no-loop'],
    ['--format', 'webp', '--time', '0.75'],
  ]) {
    const local = renderSettings(await context(['render', ...argv]));
    const cloud = cloudRenderOptions(await context(['cloud', 'render', ...argv]));
    for (const key of ['format', 'time', 'thumbnailTime', 'range', 'loop'] as const)
      assert.deepEqual(local[key], cloud[key], `${key} of ${argv.join(' ')}`);
  }
});
