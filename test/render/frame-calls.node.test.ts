// The renderer's calls into the frame runtime are typed against its contract: renaming a member the renderer
// uses in src/runtime/frame/contract.ts must fail the type-check of src/render/frame-calls.ts. Checked on a
// copy of src/ with one member renamed at a time, so the test fails if the calls go back to untyped strings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'fx-frame-calls-'));
const contract = join(copy, 'src/runtime/frame/contract.ts');
cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
writeFileSync(
  join(copy, 'tsconfig.json'),
  JSON.stringify({
    extends: join(root, 'tsconfig.json'),
    compilerOptions: { rootDir: '.' },
    include: ['src/render/frame-calls.ts'],
  }),
);
const original = readFileSync(contract, 'utf8');
after(() => rmSync(copy, { recursive: true, force: true }));

/** Type-checks the copy; the diagnostics (empty when it passes). */
function typeCheck(): string {
  const result = spawnSync(join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'], {
    cwd: copy,
    encoding: 'utf8',
  });
  return `${result.stdout}${result.stderr}`.trim();
}

/** Renames the declaration of `member` (an interface member, with or without `readonly`) in the contract. */
function renameMember(member: string): void {
  const renamed = original.replace(new RegExp(`^(\\s+(?:readonly )?)${member}\\b`, 'm'), `$1${member}Renamed`);
  assert.notEqual(renamed, original, `"${member}" is declared in contract.ts`);
  writeFileSync(contract, renamed);
}

test('control: the unchanged copy type-checks', () => {
  writeFileSync(contract, original);
  assert.equal(typeCheck(), '');
});

for (const member of ['seek', 'ready', 'duration', 'fps', 'audioClips', 'bindingIssues', 'mediaSeeked']) {
  test(`renaming "${member}" in the frame contract fails the renderer's calls`, () => {
    renameMember(member);
    const diagnostics = typeCheck();
    assert.match(diagnostics, new RegExp(`src/render/frame-calls\\.ts\\(\\d+,\\d+\\): error TS\\d+: .*'${member}'`));
  });
}

test('the rest of the renderer reaches __fx only through frame-calls.ts (no member named in a code string)', () => {
  const folder = join(root, 'src/render');
  const offenders = readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && file !== 'frame-calls.ts')
    .filter((file) => {
      // Comments may name the runtime's members; code may not.
      const code = readFileSync(join(folder, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      return /__fx\s*(\?\.|\.|\[)/.test(code);
    });
  assert.deepEqual(offenders, []);
});
