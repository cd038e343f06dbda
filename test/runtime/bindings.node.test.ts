// applyBindings in Node (linkedom, as fx-sdk/node's users get it): no `CSS` global there, so whether a custom
// property's value is accepted is read back from the style instead of asked of CSS.supports.
import '../../src/runtime/dom-parser.node.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyBindings } from '../../src/runtime/bindings.js';
import { parseHtml } from '../../src/runtime/html.js';

test('CSS custom properties apply without a CSS global, values with punctuation too', () => {
  assert.equal(typeof (globalThis as { CSS?: unknown }).CSS, 'undefined');
  const doc = parseHtml('<div data-composition-id="c"><h1 data-var-text="title">x</h1></div>');
  const root = doc.querySelector('[data-composition-id]')!;
  const issues = applyBindings(root, { title: 'Hi', accent: 'url(a.png) rgb(1, 2, 3)' });
  assert.deepEqual(issues, []);
  assert.equal((root as HTMLElement).style.getPropertyValue('--accent'), 'url(a.png) rgb(1, 2, 3)');
  assert.equal(root.querySelector('h1')!.textContent, 'Hi');
});
