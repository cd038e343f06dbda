// The static analysis runs in Node too (CLI, service): same results as in the browser.
import '../../src/runtime/dom-parser.node.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractCompositionMetadata } from '../../src/runtime/metadata.js';
import { metadataCases, metadataSummary } from './lint-cases.js';

// The table metadata.test.ts runs in Chromium: Node must read every case exactly as the browser does.
for (const testCase of metadataCases) {
  test(`reads ${testCase.name} like a browser`, () => {
    assert.deepEqual(metadataSummary(testCase.html), testCase.expected);
  });
}

const declarations = JSON.stringify([{ id: 'title', type: 'string', label: 'Title', default: 'Hi & bye' }]).replaceAll(
  "'",
  '&#39;',
);

test('reads a full document in Node', () => {
  const html = `<!doctype html><html data-composition-variables='${declarations}'><body>
    <div data-composition-id="main" data-width="1920" data-height="1080" data-duration="5"><h1 data-var-text="title"></h1></div>
  </body></html>`;
  const metadata = extractCompositionMetadata(html);
  assert.deepEqual(
    {
      id: metadata.id,
      width: metadata.width,
      height: metadata.height,
      duration: metadata.duration,
      issues: metadata.issues,
    },
    { id: 'main', width: 1920, height: 1080, duration: 5, issues: [] },
  );
  assert.equal(metadata.variables[0]?.default, 'Hi & bye');
});

test('reads a template fragment in Node, decoding entities like a browser', () => {
  const html = `<template id="card"><div data-composition-id="card" data-width="640" data-height="360" data-composition-variables="[{&quot;id&quot;:&quot;name&quot;,&quot;type&quot;:&quot;string&quot;,&quot;label&quot;:&quot;Name&quot;,&quot;default&quot;:&quot;A&quot;}]"></div></template>`;
  const metadata = extractCompositionMetadata(html);
  assert.equal(metadata.id, 'card');
  assert.equal(metadata.width, 640);
  assert.deepEqual(
    metadata.variables.map((variable) => variable.id),
    ['name'],
  );
});
