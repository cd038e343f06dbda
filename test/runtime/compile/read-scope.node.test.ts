// The compiler's read scope over the hostile read-URL corpus: an entry's folder and nothing that only looks like it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadScope } from '../../../src/runtime/compile/reads.js';
import { READ_SCOPE_ENTRY, READ_SCOPE_URLS } from '../hostile-urls.js';

const scope = new ReadScope(READ_SCOPE_ENTRY, [], READ_SCOPE_ENTRY);

for (const { name, input, verdict } of READ_SCOPE_URLS) {
  test(`${verdict}: ${name}`, () => {
    const url = new URL(input, READ_SCOPE_ENTRY);
    assert.equal(scope.allows(url) ? 'inside' : 'outside', verdict, `${JSON.stringify(input)} → ${url.href}`);
  });
}

test('a listed folder widens the scope to that folder only', () => {
  const wider = new ReadScope(READ_SCOPE_ENTRY, ['https://cdn.example/kit'], READ_SCOPE_ENTRY);
  assert.equal(wider.allows(new URL('https://cdn.example/kit/card.css')), true);
  assert.equal(wider.allows(new URL('https://cdn.example/kit-private/card.css')), false);
  assert.equal(wider.allows(new URL('https://cdn.example/other/card.css')), false);
});
