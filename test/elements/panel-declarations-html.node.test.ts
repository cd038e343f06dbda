// Rewriting `data-composition-variables` in source text: every other byte stays, and the result reads back as
// written through the runtime's own parser (the Node adapter here; the browser tests use the browser's).
import '../../src/runtime/dom-parser.node.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeDeclarations } from '../../src/elements/panel/declarations-html.js';
import { startTags } from '../../src/elements/panel/start-tags.js';
import type { VariableDeclaration } from '../../src/runtime/declarations.js';
import { isFxError } from '../../src/runtime/errors.js';
import { extractCompositionMetadata } from '../../src/runtime/metadata.js';

const TITLE = { id: 'title', type: 'string', label: 'Title', default: 'Hi' } as VariableDeclaration;
const HOSTILE = [
  { id: `it's "quoted" </script><!--`, type: 'string', label: "a 'b' & c &amp;", default: '</html>\n\'"' },
  { id: 'ü🎬', type: 'enum', label: 'E', default: '>', options: [{ value: '>', label: '<' }] },
] as VariableDeclaration[];

const read = (html: string) => extractCompositionMetadata(html).variables;

const CASES: Record<string, string> = {
  'declarations on <html>': `<!doctype html><html lang="en" data-composition-variables='[]'><body><div data-composition-id="a"></div></body></html>`,
  'declarations on the composition root, double-quoted': `<div data-composition-id="a" data-composition-variables="[{&quot;id&quot;:&quot;x&quot;,&quot;type&quot;:&quot;boolean&quot;,&quot;label&quot;:&quot;X&quot;,&quot;default&quot;:true}]" data-width="10"></div>`,
  'no declarations yet, full document': `<!DOCTYPE html>\n<HTML>\n<head><title>t</title></head><body><main data-composition-id="a"></main></body></HTML>`,
  'no declarations yet, fragment': `<div data-composition-id=main data-width=320>x</div>`,
  'a self-closing root': `<div data-composition-id="a"/>`,
  'decoys in comments, scripts, styles and attribute values': `<!-- <div data-composition-id="decoy"> --><script>const s = '<div data-composition-id="decoy2">';</script><style>a[title='<b data-composition-id>']{}</style><p title='<i data-composition-id="x">'></p><template><section data-composition-id="real" data-composition-variables='[]'></section></template>`,
  'an unquoted attribute value and spaces around =': `<div data-composition-variables = [] data-composition-id = a ></div>`,
  'upper-case attribute names': `<div DATA-COMPOSITION-ID="a" DATA-COMPOSITION-VARIABLES='[]'></div>`,
  'a duplicate attribute: the parser keeps the first': `<div data-composition-id="a" data-composition-variables='[]' data-composition-variables='[{"bad":1}]'></div>`,
  '<html> without the attribute: the composition root carries them': `<html><body><div data-composition-id="a" data-composition-variables='[]'></div></body></html>`,
  'a textarea holding markup': `<textarea><div data-composition-id="decoy"></textarea><div data-composition-id="a"></div>`,
};

for (const [name, source] of Object.entries(CASES)) {
  test(`writes and reads back: ${name}`, () => {
    for (const declarations of [[TITLE], HOSTILE, []]) {
      const written = writeDeclarations(source, declarations);
      assert.deepEqual(read(written), declarations);
      // Writing again over the result changes only the attribute.
      assert.equal(writeDeclarations(written, declarations), written);
    }
  });
}

test('leaves every other byte as it was', () => {
  const source = `<!doctype html>\n<html   lang="en"\n  data-composition-variables='[{"id":"old","type":"number","label":"Old","default":1}]'  class=x>\n<body><div data-composition-id="a">  text &amp; more </div></body></html>\n`;
  const written = writeDeclarations(source, [TITLE]);
  const start = source.indexOf('data-composition-variables');
  const end = source.indexOf("]'", start) + 2;
  assert.equal(written.slice(0, start), source.slice(0, start));
  assert.equal(written.slice(written.length - (source.length - end)), source.slice(end));
});

test('a markup with no element to carry the declarations is refused with its code', () => {
  assert.throws(
    () => writeDeclarations('just text', [TITLE]),
    (error) => isFxError(error, 'declaration_root_missing'),
  );
});

test('a markup the scanner would misplace is refused, not corrupted', () => {
  // A second <html> tag merges its attributes into the root: the scanner's pick is not what the parser reads.
  const source = `<html><body><div data-composition-id="a"></div><html data-composition-variables='[]'>`;
  assert.throws(
    () => writeDeclarations(source, [TITLE]),
    (error) => isFxError(error, 'declarations_rewrite_failed'),
  );
});

test('the scanner never throws and always advances on malformed markup', () => {
  for (const source of [
    '<',
    '<a',
    '<a b',
    '<a b=',
    "<a b='",
    '<a b="x',
    '<!--',
    '<!-->',
    '<script>',
    '</',
    '<a/',
    '<a =x>',
    '<<<>>>',
    '\0<a\0>',
  ]) {
    assert.doesNotThrow(() => [...startTags(source)], source);
  }
});
