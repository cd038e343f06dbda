/** `fx lint`'s pure parts. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isInsideFolder } from '../../../src/cli/commands/lint.js';

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
