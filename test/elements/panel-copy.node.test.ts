// The copied command must give the CLI back exactly the values: run its quoting through a real POSIX shell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { renderCommand, shellQuote, valuesJson } from '../../src/elements/panel/copy.js';

/** The words `sh` splits `command` into (after the command name), as the CLI would receive them. */
function shellWords(command: string): string[] {
  const script = `set -- ${command.replace(/^fx /, '')}; for word in "$@"; do printf '%s\\0' "$word"; done`;
  const result = spawnSync('sh', ['-c', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split('\0').slice(0, -1);
}

const HOSTILE_VALUES: Record<string, unknown>[] = [
  { title: "It's" },
  { title: 'say "hi"' },
  { title: 'line one\nline two\r\n\ttabbed' },
  { title: "$(rm -rf ~) `id` $HOME ${x} !! \\ \\' *?[a]" },
  { title: 'ünïcödé 🎬 日本語 \u202e rtl \u2028 sep' },
  { title: '</script><script>alert(1)</script>' },
  { "we'ird\nkey": "'", '': '' },
  { nested: { name: 'Inter', source: "data:font/ttf;base64,AA'=" }, list: [1, 'a b', null, true] },
  { title: "'".repeat(50) },
];

test('a command of hostile values reaches the CLI as exactly those values', () => {
  for (const values of HOSTILE_VALUES) {
    const words = shellWords(renderCommand('.', values));
    assert.deepEqual(words.slice(0, 3), ['cloud', 'render', '.']);
    assert.equal(words[3], '--variables');
    assert.deepEqual(JSON.parse(words[4]!), values);
    assert.equal(words.length, 5);
  }
});

test('a project folder with spaces, quotes and unicode is one word', () => {
  for (const dir of ["my project's dir", 'a b', 'ü/ñ', '-starts-with-dash', '~', '$HOME', '*']) {
    assert.equal(shellWords(renderCommand(dir, {}))[2], dir);
  }
});

test('safe words stay unquoted; everything else is single-quoted', () => {
  assert.equal(shellQuote('./projects/intro'), './projects/intro');
  assert.equal(shellQuote(''), "''");
  assert.equal(shellQuote("it's"), "'it'\\''s'");
  assert.equal(renderCommand('.', { a: 1 }), `fx cloud render . --variables '{"a":1}'`);
});

test('NUL cannot be a shell argument and is refused; in values JSON escapes it', () => {
  assert.throws(() => shellQuote('a\0b'), TypeError);
  assert.deepEqual(JSON.parse(shellWords(renderCommand('.', { title: 'a\0b' }))[4]!), { title: 'a\0b' });
});

test('the JSON is one line whatever the values hold', () => {
  assert.equal(valuesJson({ title: 'a\nb' }), '{"title":"a\\nb"}');
});
