/**
 * The completion script as shells run it: sourced in a real bash (and in zsh through bashcompinit, when zsh is
 * installed), `_fx` driven through COMP_WORDS/COMP_CWORD as the shell's completion would.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { completionScript } from '../../../src/cli/commands/completion.js';
import { tempProject } from '../helpers.js';

const hasZsh = spawnSync('sh', ['-c', 'command -v zsh'], { stdio: 'ignore' }).status === 0;

/** Words on the line (the last is the one being completed) → what the script offers. */
const CASES: [string[], string[]][] = [
  [['fx', 'cl'], ['cloud']],
  [['fx', 'co'], ['completion']],
  [
    ['fx', 'cloud', ''],
    ['render', 'list', 'get', 'delete'],
  ],
  [['fx', 'cloud', 'r'], ['render']],
  [['fx', 'cloud', 'render', '--no-w'], ['--no-wait']],
  [
    ['fx', 'cloud', 'render', '--no-'],
    ['--no-loop', '--no-wait'],
  ],
  [
    ['fx', 'render', '--re'],
    ['--resolution', '--resume'],
  ],
  [['fx', 'render', '-o', 'out.mp4', '--wo'], ['--workers']],
  [['fx', 'service', '--p'], ['--port']],
  [['fx', 'service', 'create-key', '--a'], ['--account']],
  [
    ['fx', 'cloud', 'delete', '--'],
    ['--yes', '--json', '--help'],
  ],
  [['fx', 'render', 'ind'], ['index.html']],
  [['fx', 'nope', '--'], []],
];

describe('fx completion', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let script: string;
  before(async () => {
    dir = await tempProject({ 'index.html': '<html></html>' });
    script = join(dir.path, 'fx-completion.sh');
    await writeFile(script, `${await completionScript()}\n`);
  });
  after(() => dir.cleanup());

  const complete = (shell: 'bash' | 'zsh', words: string[]) => {
    const array = words.map((word) => `'${word}'`).join(' ');
    const setup =
      shell === 'bash'
        ? `source '${script}'`
        : `autoload -U +X compinit bashcompinit && compinit -u -D && bashcompinit && source '${script}' && setopt ksharrays`;
    const result = spawnSync(
      shell,
      ['-c', `${setup}; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _fx; printf '%s\\n' "\${COMPREPLY[@]}"`],
      { cwd: dir.path, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir.path } },
    );
    assert.equal(result.status, 0, result.stderr);
    const offered = result.stdout.split('\n').filter(Boolean);
    // bashcompinit's compgen offers every word; zsh's compadd then keeps those with the typed prefix.
    return shell === 'zsh' ? offered.filter((word) => word.startsWith(words.at(-1)!)) : offered;
  };

  for (const [words, expected] of CASES) {
    test(`bash: ${words.join(' ')}⇥ → ${expected.join(' ') || 'nothing'}`, () =>
      assert.deepEqual(complete('bash', words), expected));
  }

  test('bash: the function is registered for fx', () => {
    const result = spawnSync('bash', ['-c', `source '${script}'; complete -p fx`], { encoding: 'utf8' });
    assert.equal(result.stdout.trim(), 'complete -F _fx fx');
  });

  describe(
    'zsh (bashcompinit)',
    { skip: hasZsh ? false : 'zsh is not installed (scripts/setup.mjs installs it)' },
    () => {
      test('zsh -n: the script parses', () => {
        const result = spawnSync('zsh', ['-n', script], { encoding: 'utf8' });
        assert.equal(result.status, 0, result.stderr);
      });
      for (const [words, expected] of CASES) {
        test(`zsh: ${words.join(' ')}⇥ → ${expected.join(' ') || 'nothing'}`, () =>
          assert.deepEqual(complete('zsh', words), expected));
      }
    },
  );
});
