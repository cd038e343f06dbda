import { expect } from '@open-wc/testing';
import { compileComposition, type CompileOptions } from '../../../src/runtime/compile/compile.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const BASE = new URL('/virtual/', location.href).href;
const TYPES: Record<string, string> = { css: 'text/css', png: 'image/png', woff2: 'font/woff2', html: 'text/html' };
const typeOf = (path: string) => TYPES[path.split('.').pop()!] ?? 'application/octet-stream';
/** The first bytes of a WOFF2 file: enough for the compiler's font check. */
const WOFF2 = new Uint8Array([0x77, 0x4f, 0x46, 0x32, 0, 1, 0, 0]);

/** A server over path → body; anything else 404. Records `METHOD url` of every request. */
function server(files: Record<string, string | Uint8Array | number>, asked: string[] = []): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    asked.push(`${init?.method ?? 'GET'} ${url}`);
    const file = files[url.startsWith(BASE) ? url.slice(BASE.length) : url];
    if (file === undefined) return new Response('not here', { status: 404 });
    if (typeof file === 'number') return new Response('', { status: file });
    return new Response(file as BodyInit, { headers: { 'content-type': typeOf(url) } });
  };
}

const entry = (body: string, head = '', declarations?: unknown[]) =>
  `<!doctype html><html${declarations ? ` data-composition-variables='${JSON.stringify(declarations)}'` : ''}><head>${head}</head><body>` +
  `<div data-composition-id="main" data-width="320" data-height="180" data-duration="2">${body}</div></body></html>`;

async function issuesOf(files: Record<string, string | Uint8Array | number>, options: Partial<CompileOptions> = {}) {
  const compiled = await compileComposition(`${BASE}index.html`, {
    runtimeUrl: RUNTIME_URL,
    fetch: server(files),
    ...options,
  });
  return compiled.issues.map(({ code, path, severity }) => ({ code, path, severity }));
}

const missing = (path: (string | number)[]) => ({ code: 'project_file_missing', path, severity: 'error' });

describe('compileComposition: files the project does not have', () => {
  const cases: [string, string, string, (string | number)[]][] = [
    ['<img src>', entry('<img src="img/logo.png">'), '', ['index.html', '<img src>', 'img/logo.png']],
    ['<video src>', entry('<video src="clip.mp4"></video>'), '', ['index.html', '<video src>', 'clip.mp4']],
    ['<audio src>', entry('<audio src="music.mp3"></audio>'), '', ['index.html', '<audio src>', 'music.mp3']],
    ['<source src>', entry('<video><source src="clip.webm"></video>'), '', ['index.html', '<source src>', 'clip.webm']],
    ['poster', entry('<video poster="poster.png"></video>'), '', ['index.html', '<video poster>', 'poster.png']],
    [
      'srcset',
      entry('<img src="a.png" srcset="a.png 1x, a-2x.png 2x">'),
      'a.png',
      ['index.html', '<img srcset>', 'a-2x.png'],
    ],
    [
      'CSS url()',
      entry('', '<style>div { background: url("bg.png") }</style>'),
      '',
      ['index.html', '<style> url()', 'bg.png'],
    ],
    [
      'style attribute url()',
      entry('<p style="background: url(bg.png)"></p>'),
      '',
      ['index.html', '<p style> url()', 'bg.png'],
    ],
    [
      '@font-face',
      entry('', "<style>@font-face { font-family: F; src: url('fonts/f.woff2') }</style>"),
      '',
      ['index.html', '<style> url()', 'fonts/f.woff2'],
    ],
    [
      'an image variable default',
      entry('', '', [{ id: 'logo', type: 'image', default: 'logo.png' }]),
      '',
      ['index.html', 'image variable "logo" default', 'logo.png'],
    ],
    [
      'a font variable default',
      entry('', '', [{ id: 'face', type: 'font', default: { name: 'F', source: 'f.woff2' } }]),
      '',
      ['index.html', 'font variable "face" default', 'f.woff2'],
    ],
    [
      'a stylesheet',
      entry('', '<link rel="stylesheet" href="style.css">'),
      '',
      ['index.html', '<link href>', 'style.css'],
    ],
  ];
  for (const [name, html, present, path] of cases) {
    it(`${name}: "project_file_missing" naming the file, the file naming it and where`, async () => {
      const files: Record<string, string | Uint8Array> = { 'index.html': html };
      if (present) files[present] = 'png';
      expect(await issuesOf(files)).to.deep.equal([missing(path)]);
    });
  }

  it('files the project has: no issue', async () => {
    const files = {
      'index.html': entry(
        '<img src="img/logo.png"><video poster="poster.png"><source src="clip.webm"></video>',
        "<style>@font-face { font-family: F; src: url('f.woff2') } div { background: url(bg.png) }</style>",
      ),
      'img/logo.png': 'png',
      'poster.png': 'png',
      'clip.webm': 'webm',
      'bg.png': 'png',
      'f.woff2': WOFF2,
    };
    expect(await issuesOf(files)).to.deep.equal([]);
  });

  it('the message names the file, the file naming it and the attribute', async () => {
    const compiled = await compileComposition(`${BASE}index.html`, {
      runtimeUrl: RUNTIME_URL,
      fetch: server({ 'index.html': entry('<img src="img/logo.png">') }),
    });
    expect(compiled.issues[0]!.message).to.equal(
      '<img src> in "index.html" names "img/logo.png", which the project does not have',
    );
  });

  it('a missing sub-composition: "project_file_missing" with its path', async () => {
    const issues = await issuesOf({ 'index.html': entry('<div data-composition-src="parts/card.html"></div>') });
    expect(issues).to.deep.equal([missing(['parts/card.html'])]);
  });

  it('a file a sub-composition names: reported with the sub-composition as the file naming it', async () => {
    const card =
      '<template><div data-composition-id="card" data-duration="1"><img src="../img/x.png"></div></template>';
    const issues = await issuesOf({
      'index.html': entry('<div data-composition-src="parts/card.html"></div>'),
      'parts/card.html': card,
    });
    expect(issues).to.deep.equal([missing(['parts/card.html', '<img src>', 'img/x.png'])]);
  });

  it('asks the server with HEAD, once a file however often it is named; never another host', async () => {
    const asked: string[] = [];
    await compileComposition(`${BASE}index.html`, {
      runtimeUrl: RUNTIME_URL,
      fetch: server(
        { 'index.html': entry('<img src="a.png"><img src="a.png"><img src="https://cdn.example/b.png">') },
        asked,
      ),
    });
    expect(asked).to.deep.equal([`GET ${BASE}index.html`, `HEAD ${BASE}a.png`]);
  });

  it('an answer other than 404 or 410 (a 500, a 405) is no proof of a missing file', async () => {
    const issues = await issuesOf({
      'index.html': entry('<img src="a.png"><img src="b.png">'),
      'a.png': 500,
      'b.png': 405,
    });
    expect(issues).to.deep.equal([]);
  });

  it('410 Gone is missing too', async () => {
    const issues = await issuesOf({ 'index.html': entry('<img src="a.png">'), 'a.png': 410 });
    expect(issues).to.deep.equal([missing(['index.html', '<img src>', 'a.png'])]);
  });
});

describe('compileComposition: an <img crossorigin> past the size limits', () => {
  const big = new Uint8Array(4096).fill(7);
  for (const [name, limits] of [
    ['past the file limit', { fileBytes: 1024 }],
    ['past the total limit', { totalBytes: 2048 }],
    ['past the compiled document limit', { documentBytes: 3000 }],
  ] as const) {
    it(`${name}: "image_too_large", an error (the preview cannot show it either), not a sub-composition's code`, async () => {
      const issues = await issuesOf(
        { 'index.html': entry('<img crossorigin src="big.png">'), 'big.png': big },
        { limits },
      );
      expect(issues).to.deep.equal([
        { code: 'image_too_large', path: ['img', 'crossorigin', 'big.png'], severity: 'error' },
      ]);
    });
  }

  it('within the limits: inlined as a data: URL, no issue', async () => {
    const issues = await issuesOf({ 'index.html': entry('<img crossorigin src="big.png">'), 'big.png': big });
    expect(issues).to.deep.equal([]);
  });
});
