// What the compile refuses, and the limits it keeps: missing, broken, cyclic, too deep or too large
// sub-compositions and entries; an abort.
import { expect } from '@open-wc/testing';
import { compileComposition, CompileIssueCode, type CompileOptions } from '../../../src/runtime/compile/compile.js';
import { isFxError } from '../../../src/runtime/errors.js';
import { FrameAttr } from '../../../src/runtime/frame-config.js';
import { RUNTIME_URL, at, filesFetch, compile, compileError, parse, entry, card } from './helpers.js';

describe('compileComposition: guards', () => {
  const codeOfIssue = async (
    files: Record<string, string | (() => Response)>,
    options: Partial<CompileOptions> = {},
  ) => {
    const { issues, html } = await compile(files, options);
    return { codes: issues.map((found) => found.code), paths: issues.map((found) => found.path), doc: parse(html) };
  };

  it('a missing sub-composition: "project_file_missing", reported with its path, the rest compiles', async () => {
    const { codes, paths, doc } = await codeOfIssue({
      'index.html': entry(
        '<div id="ok" data-composition-src="card.html"></div><div id="gone" data-composition-src="missing.html"><p>placeholder</p></div>',
      ),
      'card.html': card(),
    });
    expect(codes).to.deep.equal([CompileIssueCode.fileMissing]);
    expect(paths).to.deep.equal([['missing.html']]);
    expect(doc.getElementById('gone')!.getAttribute(FrameAttr.error)).to.equal('project_file_missing');
    expect(doc.getElementById('gone')!.children.length).to.equal(0);
    expect(doc.querySelector('#ok .name')?.textContent).to.equal('x');
  });

  it('a nested broken sub-composition is reported with the chain that includes it', async () => {
    const { codes, paths, doc } = await codeOfIssue({
      'index.html': entry('<div id="a" data-composition-src="a.html"></div>'),
      'a.html':
        '<template><div data-composition-id="a"><span id="kept">kept</span><div id="x" data-composition-src="missing.html"></div></div></template>',
    });
    expect(codes).to.deep.equal(['project_file_missing']);
    // Nested names were resolved when their parent was inlined, so the chain is absolute past the entry.
    expect(paths).to.deep.equal([[at('a.html'), at('missing.html')]]);
    expect(doc.getElementById('kept')?.textContent).to.equal('kept');
  });

  it('a fetch that fails outright: "subcomposition_not_found"', async () => {
    const { codes } = await codeOfIssue({
      'index.html': entry('<div data-composition-src="down.html"></div>'),
      'down.html': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(codes).to.deep.equal(['subcomposition_not_found']);
  });

  for (const [name, body] of [
    ['empty', ''],
    ['blank', '  \n\t '],
  ] as const) {
    it(`an ${name} sub-composition: "subcomposition_empty"`, async () => {
      const { codes } = await codeOfIssue({
        'index.html': entry('<div data-composition-src="e.html"></div>'),
        'e.html': body,
      });
      expect(codes).to.deep.equal(['subcomposition_empty']);
    });
  }

  it('a sub-composition with no root and no content: "subcomposition_invalid"', async () => {
    const { codes } = await codeOfIssue({
      'index.html': entry('<div data-composition-src="c.html"></div>'),
      'c.html': '<!-- nothing but a comment -->',
    });
    expect(codes).to.deep.equal(['subcomposition_invalid']);
  });

  it('a cycle a → b → a: "subcomposition_cycle", a and b still compile', async () => {
    const { codes, paths, doc } = await codeOfIssue({
      'index.html': entry('<div id="a" data-composition-src="a.html"></div>'),
      'a.html':
        '<template><div data-composition-id="a"><i id="in-a">a</i><div id="b" data-composition-src="b.html"></div></div></template>',
      'b.html':
        '<template><div data-composition-id="b"><i id="in-b">b</i><div id="again" data-composition-src="a.html"></div></div></template>',
    });
    expect(codes).to.deep.equal(['subcomposition_cycle']);
    expect(paths).to.deep.equal([[at('a.html'), at('b.html'), at('a.html')]]);
    expect(doc.getElementById('in-a')?.textContent).to.equal('a');
    expect(doc.getElementById('in-b')?.textContent).to.equal('b');
    expect(doc.getElementById('again')!.getAttribute(FrameAttr.error)).to.equal('subcomposition_cycle');
  });

  it('a sub-composition including the entry: "subcomposition_cycle"', async () => {
    const { codes } = await codeOfIssue({ 'index.html': entry('<div data-composition-src="index.html"></div>') });
    expect(codes).to.deep.equal(['subcomposition_cycle']);
  });

  const chain = (levels: number) => {
    const files: Record<string, string> = { 'index.html': entry('<div data-composition-src="l1.html"></div>') };
    for (let level = 1; level <= levels; level += 1) {
      const next = level < levels ? `<div data-composition-src="l${level + 1}.html"></div>` : '';
      files[`l${level}.html`] =
        `<template><div data-composition-id="l${level}"><b id="b${level}">${level}</b>${next}</div></template>`;
    }
    return files;
  };

  it('nesting up to the depth limit compiles', async () => {
    const { codes, doc } = await codeOfIssue(chain(3), { limits: { depth: 3 } });
    expect(codes).to.deep.equal([]);
    expect(doc.getElementById('b3')?.textContent).to.equal('3');
  });

  it('nesting past the depth limit: "subcomposition_too_deep"', async () => {
    const { codes, paths, doc } = await codeOfIssue(chain(4), { limits: { depth: 3 } });
    expect(codes).to.deep.equal(['subcomposition_too_deep']);
    expect(paths[0]!.at(-1)).to.equal(at('l4.html'));
    expect(doc.getElementById('b3')?.textContent).to.equal('3');
    expect(doc.getElementById('b4')).to.equal(null);
  });

  it('the default depth limit stops an unbounded chain', async () => {
    const { codes } = await codeOfIssue(chain(12));
    expect(codes).to.deep.equal(['subcomposition_too_deep']);
  });

  it('a sub-composition past the file size limit: "subcomposition_too_large"', async () => {
    const { codes } = await codeOfIssue(
      {
        'index.html': entry('<div data-composition-src="big.html"></div>'),
        'big.html': card(`<p>${'x'.repeat(2000)}</p>`),
      },
      { limits: { fileBytes: 1000 } },
    );
    expect(codes).to.deep.equal(['subcomposition_too_large']);
  });

  it('a sub-composition declaring a length past the limit: "subcomposition_too_large" before reading it', async () => {
    let read = false;
    class WatchedResponse extends Response {
      override text() {
        read = true;
        return super.text();
      }
    }
    const { codes } = await codeOfIssue(
      {
        'index.html': entry('<div data-composition-src="big.html"></div>'),
        'big.html': () =>
          new WatchedResponse('small', { headers: { 'content-length': '999999999', 'content-type': 'text/html' } }),
      },
      { limits: { fileBytes: 1000 } },
    );
    expect(codes).to.deep.equal(['subcomposition_too_large']);
    expect(read).to.equal(false);
  });

  it('sub-compositions past the total size limit: "subcomposition_too_large" for the one that crosses it', async () => {
    const files = {
      'index.html': entry(
        '<div id="one" data-composition-src="one.html"></div><div id="two" data-composition-src="two.html"></div>',
      ),
      'one.html': card('x'.repeat(400)),
      'two.html': card('y'.repeat(400)),
    };
    const { codes, paths } = await codeOfIssue(files, { limits: { totalBytes: 1300 } });
    expect(codes).to.deep.equal(['subcomposition_too_large']);
    expect(paths).to.deep.equal([['two.html']]);
  });

  const refused = [
    'javascript:alert(1)',
    'data:text/html,<div data-composition-id=x></div>',
    'ftp://example.com/a.html',
    'file:///etc/passwd',
    'about:blank',
    'http://[bad',
  ];
  for (const src of refused) {
    it(`a sub-composition at ${JSON.stringify(src)}: "subcomposition_url_refused", never fetched`, async () => {
      const asked: string[] = [];
      const { issues } = await compileComposition(at('index.html'), {
        runtimeUrl: RUNTIME_URL,
        fetch: filesFetch(
          { 'index.html': entry(`<div data-composition-src="${src.replace(/"/g, '&quot;')}"></div>`) },
          asked,
        ),
      });
      expect(issues.map((found) => found.code)).to.deep.equal(['subcomposition_url_refused']);
      expect(asked).to.deep.equal([at('index.html')]);
    });
  }

  it('an entry without a composition root: "composition_invalid"', async () => {
    expect(await compileError({ 'index.html': '<!doctype html><p>no root here</p>' })).to.equal(
      CompileIssueCode.entryInvalid,
    );
  });

  it('an entry answering 404: "composition_not_found"', async () => {
    expect(await compileError({})).to.equal('composition_not_found');
  });

  it('an entry that cannot be fetched: "composition_not_found"', async () => {
    const error = await compileError({
      'index.html': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(error).to.equal('composition_not_found');
  });

  it('an empty entry: "composition_empty"', async () => {
    expect(await compileError({ 'index.html': ' \n ' })).to.equal('composition_empty');
  });

  it('an empty markup entry: "composition_empty"', async () => {
    const failure = await compileComposition({ html: '' }, { runtimeUrl: RUNTIME_URL }).catch(
      (error: unknown) => error,
    );
    expect(isFxError(failure, 'composition_empty')).to.equal(true);
  });

  it('an entry past the size limit: "composition_too_large"', async () => {
    expect(await compileError({ 'index.html': entry('x'.repeat(3000)) }, { limits: { fileBytes: 1000 } })).to.equal(
      'composition_too_large',
    );
  });

  it('an entry 404 carries the HTTP status', async () => {
    const failure = await compile({}).catch((error: unknown) => error);
    expect(isFxError(failure) && failure.status).to.equal(404);
  });

  it('stops with the abort reason when aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    const failure = await compileComposition(at('index.html'), {
      runtimeUrl: RUNTIME_URL,
      signal: abort.signal,
      fetch: (_input, init) =>
        init?.signal?.aborted ? Promise.reject(init.signal.reason) : Promise.resolve(new Response(entry(''))),
    }).catch((error: unknown) => error);
    expect((failure as Error).name).to.equal('AbortError');
  });
});
