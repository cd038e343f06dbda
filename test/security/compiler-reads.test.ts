// Issue 8, item 4: the host-side compiler must not read, on an untrusted composition's behalf, what the host can
// reach and the composition's opaque frame cannot. The host-only resources are real files of the test server
// (test/fixtures/security/host-only/); sub-compositions written for a test are served from the entry's folder by
// the injected fetch, everything else goes to the real server. `asked` logs every request the compiler made.
import { expect } from '@open-wc/testing';
import {
  compileComposition,
  CompileIssueCode,
  type CompileOptions,
  type CompiledComposition,
} from '../../src/runtime/compile/compile.js';
import { isFxError } from '../../src/runtime/errors.js';
import { FrameAttr } from '../../src/runtime/frame-config.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const FOLDER = new URL('/test/fixtures/security/', location.href).href;
const at = (path: string) => new URL(path, FOLDER).href;
/** Where the markup entries of these tests stand: their folder is `comp/`. */
const ENTRY = at('comp/index.html');
const SECRET = 'HOST-ONLY-SECRET';
/** The same test server under its other name: another origin (an API whose CORS list names the host would answer). */
const OTHER_ORIGIN = new URL(FOLDER);
OTHER_ORIGIN.hostname = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';

const TYPES: Record<string, string> = { css: 'text/css', js: 'text/javascript', html: 'text/html' };

/** Serves `virtual` (paths under `comp/`, typed by extension), the real test server for the rest; logs requests. */
function hostFetch(virtual: Record<string, string>, asked: string[]): typeof fetch {
  return (input, init) => {
    const url = String(input);
    asked.push(url);
    const path = url.startsWith(at('comp/')) ? url.slice(at('comp/').length) : undefined;
    const body = path === undefined ? undefined : virtual[path];
    if (body === undefined) return fetch(input, init);
    return Promise.resolve(
      new Response(body, { headers: { 'content-type': TYPES[path!.split('.').pop()!] ?? 'text/html' } }),
    );
  };
}

const markup = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body><div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="1">${body}</div></body></html>`;
const sub = (inner: string) =>
  `<template><div data-composition-id="sub"><p class="sub">sub</p>${inner}</div></template>`;

interface Compiled extends CompiledComposition {
  readonly asked: string[];
  readonly codes: string[];
  readonly doc: Document;
}

async function compile(
  body: string,
  {
    head = '',
    files = {},
    ...options
  }: { head?: string; files?: Record<string, string> } & Partial<CompileOptions> = {},
): Promise<Compiled> {
  const asked: string[] = [];
  const compiled = await compileComposition(
    { html: markup(body, head), url: ENTRY },
    { runtimeUrl: RUNTIME_URL, fetch: hostFetch(files, asked), ...options },
  );
  const doc = new DOMParser().parseFromString(compiled.html, 'text/html');
  return { ...compiled, asked, codes: compiled.issues.map((found) => found.code), doc };
}

const askedFor = (asked: string[], fragment: string) => asked.filter((url) => url.includes(fragment));

describe('compiler reads: the threat is real', () => {
  it('the host page can read the host-only files without cookies', async () => {
    const response = await fetch(at('host-only/secret.html'), { credentials: 'omit' });
    expect(await response.text()).to.include(SECRET);
  });
});

describe('compiler reads: only the entry’s folder by default', () => {
  const outside = [
    ['a relative path out of the folder', '../host-only/secret.html'],
    ['an absolute path on the same origin', new URL(at('host-only/secret.html')).pathname],
    ['another origin', new URL('host-only/secret.html', OTHER_ORIGIN).href],
    ['an encoded "/" walking out of the folder', '..%2fhost-only%2fsecret.html'],
    ['a URL with credentials', at('comp/card.html').replace('//', '//user:pass@')],
  ];
  for (const [name, src] of outside) {
    it(`a sub-composition at ${name}: "url_outside_scope", never requested, nothing of it inlined`, async () => {
      const { codes, asked, html, doc } = await compile(
        `<div id="s" data-composition-src="${src}"></div><p id="kept">kept</p>`,
      );
      expect(codes).to.deep.equal([CompileIssueCode.urlOutsideScope]);
      expect(asked).to.deep.equal([]);
      expect(html).not.to.include(SECRET);
      expect(doc.getElementById('s')!.getAttribute(FrameAttr.error)).to.equal('url_outside_scope');
      expect(doc.getElementById('kept')!.textContent).to.equal('kept');
    });
  }

  it('a redirect from inside the folder to outside it: "url_outside_scope", nothing inlined', async () => {
    const { codes, html } = await compile(
      `<div data-composition-src="redirect?to=${encodeURIComponent(at('host-only/secret.html'))}"></div>`,
    );
    expect(codes).to.deep.equal([CompileIssueCode.urlOutsideScope]);
    expect(html).not.to.include(SECRET);
  });

  it('a sub-composition’s stylesheet outside the folder: the sub fails with "url_outside_scope", never requested', async () => {
    const { codes, asked, html } = await compile('<div data-composition-src="s.html"></div>', {
      files: { 's.html': sub('<link rel="stylesheet" href="../host-only/secret.css">') },
    });
    expect(codes).to.deep.equal([CompileIssueCode.urlOutsideScope]);
    expect(askedFor(asked, 'host-only')).to.deep.equal([]);
    expect(html).not.to.include(SECRET);
  });

  it('a sub-composition’s script outside the folder: the sub fails with "url_outside_scope", never requested', async () => {
    const { codes, asked, html } = await compile('<div data-composition-src="s.html"></div>', {
      files: { 's.html': sub('<script src="/test/fixtures/security/host-only/secret.js"></script>') },
    });
    expect(codes).to.deep.equal([CompileIssueCode.urlOutsideScope]);
    expect(askedFor(asked, 'host-only')).to.deep.equal([]);
    expect(html).not.to.include(SECRET);
  });

  it('a font outside the folder keeps its URL for the frame (a warning), never requested by the compiler', async () => {
    const head = '<style>@font-face { font-family: Leak; src: url("../host-only/secret.ttf"); }</style>';
    const { issues, asked, doc } = await compile('', { head });
    expect(issues.map((found) => [found.code, found.severity])).to.deep.equal([
      [CompileIssueCode.urlOutsideScope, 'warning'],
    ]);
    expect(askedFor(asked, 'host-only')).to.deep.equal([]);
    expect(doc.querySelector('style')!.textContent).to.include(at('host-only/secret.ttf'));
  });

  it('a top-level stylesheet outside the folder stays a link for the frame (a warning), never requested by the compiler', async () => {
    const { issues, asked, html, doc } = await compile('', {
      head: '<link rel="stylesheet" href="../host-only/secret.css">',
    });
    expect(issues.map((found) => [found.code, found.severity])).to.deep.equal([
      [CompileIssueCode.urlOutsideScope, 'warning'],
    ]);
    expect(asked).to.deep.equal([]);
    expect(html).not.to.include(SECRET);
    expect(doc.querySelector('link[rel="stylesheet"]')!.getAttribute('href')).to.equal('../host-only/secret.css');
  });

  it('a file: sub-composition of an http entry: refused, never requested', async () => {
    const { codes, asked } = await compile('<div data-composition-src="file:///etc/passwd"></div>');
    expect(codes).to.deep.equal([CompileIssueCode.subUrlRefused]);
    expect(asked).to.deep.equal([]);
  });

  it('everything inside the folder still loads: sub-composition, its stylesheet, script and font', async () => {
    const files = {
      's.html': sub(
        '<link rel="stylesheet" href="card.css"><script src="card.js"></script><style>@font-face { font-family: Wide; src: url(font.ttf); }</style>',
      ),
    };
    const { issues, doc } = await compile('<div id="s" data-composition-src="s.html"></div>', { files });
    expect(issues).to.deep.equal([]);
    const style = doc.querySelector(`style[${FrameAttr.instanceStyle}]`)!.textContent!;
    expect(style).to.include('rgb(1, 2, 3)');
    expect(style).to.match(/url\("data:font\/ttf;base64,/);
    expect(doc.querySelector(`script[${FrameAttr.instanceScript}]`)!.textContent).to.include('data-ran');
  });
});

describe('compiler reads: content types per role', () => {
  const refused: [name: string, body: string, head: string, severity: string][] = [
    [
      'a sub-composition served as text/plain',
      '<div data-composition-src="card.html?as=text/plain"></div>',
      '',
      'error',
    ],
    ['a sub-composition served without a type', '<div data-composition-src="card.html?as=none"></div>', '', 'error'],
    [
      'a sub-composition served as application/octet-stream',
      '<div data-composition-src="card.html?as=application/octet-stream"></div>',
      '',
      'error',
    ],
    [
      'a JSON API in the folder named as a sub-composition',
      '<div data-composition-src="data.json"></div>',
      '',
      'error',
    ],
    [
      'a sub-composition’s stylesheet served as text/html',
      '<div data-composition-src="card.html?css=html"></div>',
      '',
      'error',
    ],
    [
      'a top-level stylesheet served as text/html',
      '',
      '<link rel="stylesheet" href="card.css?as=text/html">',
      'warning',
    ],
    ['a script served as text/plain', '<div data-composition-src="card.html?js=plain"></div>', '', 'error'],
    ['a script served without a type', '<div data-composition-src="card.html?js=none"></div>', '', 'error'],
    [
      'a font that is an HTML page',
      '',
      '<style>@font-face { font-family: X; src: url(not-a-font.ttf); }</style>',
      'warning',
    ],
    [
      'a font served as text/html',
      '',
      '<style>@font-face { font-family: X; src: url("font.ttf?as=text/html"); }</style>',
      'warning',
    ],
  ];
  // Sub-compositions naming a stylesheet or a script with a given type.
  const files = {
    'card.html?css=html': sub('<link rel="stylesheet" href="card.css?as=text/html">'),
    'card.html?js=plain': sub('<script src="card.js?as=text/plain"></script>'),
    'card.html?js=none': sub('<script src="card.js?as=none"></script>'),
  };
  for (const [name, body, head, severity] of refused) {
    it(`${name}: "content_type_refused" (${severity}), nothing of it inlined`, async () => {
      const { issues, html } = await compile(body, { head, files });
      expect(issues.map((found) => [found.code, found.severity])).to.deep.equal([
        [CompileIssueCode.typeRefused, severity],
      ]);
      expect(html).not.to.include(SECRET);
      expect(html).not.to.include('rgb(1, 2, 3)');
    });
  }

  for (const type of ['application/octet-stream', 'none', 'font/ttf']) {
    it(`a font file served as ${type} is inlined: fonts are told by their bytes`, async () => {
      const { issues, doc } = await compile('', {
        head: `<style>@font-face { font-family: X; src: url("font.ttf?as=${type}"); }</style>`,
      });
      expect(issues).to.deep.equal([]);
      expect(doc.querySelector('style')!.textContent).to.include('url("data:');
    });
  }
});

describe('compiler reads: allowCompositionReadsUnder', () => {
  const head =
    '<link rel="stylesheet" href="../shared/shared.css"><link rel="stylesheet" href="../shared-secret/secret.css">';

  for (const folder of [at('shared/'), at('shared'), '/test/fixtures/security/shared/']) {
    it(`${JSON.stringify(folder)} lets the composition read that folder, and not a sibling that starts alike`, async () => {
      const { issues, doc, asked } = await compile('', { head, allowCompositionReadsUnder: [folder] });
      expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
        [CompileIssueCode.urlOutsideScope, ['../shared-secret/secret.css']],
      ]);
      expect(doc.querySelector('style')!.textContent).to.include('rgb(4, 5, 6)');
      expect(askedFor(asked, 'shared-secret')).to.deep.equal([]);
    });
  }

  it('a blob: sub-composition the host made is read only when listed, exactly', async () => {
    const blob = URL.createObjectURL(new Blob([sub('')], { type: 'text/html' }));
    try {
      const refused = await compile(`<div data-composition-src="${blob}"></div>`);
      expect(refused.codes).to.deep.equal([CompileIssueCode.urlOutsideScope]);
      const listed = await compile(`<div data-composition-src="${blob}"></div>`, {
        allowCompositionReadsUnder: [blob],
      });
      expect(listed.codes).to.deep.equal([]);
      expect(listed.doc.querySelector('.sub')!.textContent).to.equal('sub');
    } finally {
      URL.revokeObjectURL(blob);
    }
  });

  for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'http://[']) {
    it(`an entry ${JSON.stringify(bad)}: "compile_options_invalid"`, async () => {
      const failure = await compile('', { allowCompositionReadsUnder: [bad] }).catch((error: unknown) => error);
      expect(isFxError(failure, CompileIssueCode.optionsInvalid)).to.equal(true);
    });
  }
});

describe('compiler reads: where an entry stands', () => {
  it('a URL entry’s folder is its tree', async () => {
    const asked: string[] = [];
    const files = {
      'index.html': markup(
        '<div id="in" data-composition-src="card.html"></div><div id="out" data-composition-src="../host-only/secret.html"></div>',
      ),
    };
    const { issues, html } = await compileComposition(at('comp/index.html'), {
      runtimeUrl: RUNTIME_URL,
      fetch: hostFetch(files, asked),
    });
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
      [CompileIssueCode.urlOutsideScope, ['../host-only/secret.html']],
    ]);
    expect(html).to.include('class="card"');
    expect(html).not.to.include(SECRET);
  });

  it('a markup entry without a url stands nowhere: it may name no file of the host', async () => {
    const asked: string[] = [];
    const { issues } = await compileComposition(
      { html: markup(`<div data-composition-src="${at('comp/card.html')}"></div>`) },
      { runtimeUrl: RUNTIME_URL, fetch: hostFetch({}, asked) },
    );
    expect(issues.map((found) => found.code)).to.deep.equal([CompileIssueCode.urlOutsideScope]);
    expect(asked).to.deep.equal([]);
  });

  it('a blob: entry has no folder: it may name no file of the host', async () => {
    const blob = URL.createObjectURL(new Blob(['x'], { type: 'text/html' }));
    try {
      const asked: string[] = [];
      const { issues } = await compileComposition(
        { html: markup(`<div data-composition-src="${at('comp/card.html')}"></div>`), url: blob },
        { runtimeUrl: RUNTIME_URL, fetch: hostFetch({}, asked) },
      );
      expect(issues.map((found) => found.code)).to.deep.equal([CompileIssueCode.urlOutsideScope]);
      expect(asked).to.deep.equal([]);
    } finally {
      URL.revokeObjectURL(blob);
    }
  });
});
