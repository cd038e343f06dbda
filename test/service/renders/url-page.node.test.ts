// withBaseHref (src/service/renders/url-page.ts): a url render's copy of its page loads its relative files from
// its origin.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withBaseHref } from '../../../src/service/renders/url-page.js';

describe('withBaseHref', () => {
  const URL_ = 'https://example.com/a/page.html?x=1&y="2"';
  const BASE = '<base href="https://example.com/a/page.html?x=1&amp;y=&quot;2&quot;">';
  test('goes first in <head>', () =>
    assert.equal(
      withBaseHref('<html><head lang="en"><title>t</title></head></html>', URL_),
      `<html><head lang="en">${BASE}<title>t</title></head></html>`,
    ));
  test('goes after <html> without <head>', () =>
    assert.equal(
      withBaseHref('<!doctype html><html><body>x</body></html>', URL_),
      `<!doctype html><html>${BASE}<body>x</body></html>`,
    ));
  test('goes after the doctype without <html>', () =>
    assert.equal(withBaseHref('<!DOCTYPE html><p>x', URL_), `<!DOCTYPE html>${BASE}<p>x`));
  test('is not confused by <header>', () =>
    assert.equal(withBaseHref('<header>x</header>', URL_), `${BASE}<header>x</header>`));
  test("keeps the page's own base", () =>
    assert.equal(withBaseHref('<head><base href="/x/"></head>', URL_), '<head><base href="/x/"></head>'));
});
