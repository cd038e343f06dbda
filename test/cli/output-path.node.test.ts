/** planOutputPaths: a batch's output paths from the --output template, each value kept in its path segment. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planOutputPaths } from '../../src/cli/output-path.js';
import { isFxError } from '../../src/runtime/errors.js';

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
