// Relative URLs of sub-compositions and of image variable values resolved against the file that wrote them.
import { expect } from '@open-wc/testing';
import { FrameAttr } from '../../../src/runtime/frame-config.js';
import { at, compile, parse, entry } from './helpers.js';

describe('compileComposition: asset URLs', () => {
  it('rewrites relative asset URLs of a sub-composition in a subfolder against its own URL', async () => {
    const sub =
      '<template><div data-composition-id="s">' +
      '<img id="i" src="./img.png" srcset="img.png 1x, ../big.png 2x" alt="">' +
      '<video id="v" poster="poster.jpg"><source id="src" src="clip.webm"></video>' +
      '<div id="st" style="background: url(\'bg.png\')"></div>' +
      '<img id="keep" src="data:image/png;base64,iVBORw0KGgo=" alt=""><a id="hash" href="#here">x</a><img id="abs" src="https://cdn.example/x.png" alt="">' +
      '</div><style>.s { background: url(tile.png); }</style></template>';
    const { html } = await compile({
      'index.html': entry('<img id="own" src="own.png" alt=""><div data-composition-src="parts/sub.html"></div>'),
      'parts/sub.html': sub,
    });
    const doc = parse(html);
    const attr = (selector: string, name: string) => doc.querySelector(selector)!.getAttribute(name);
    expect(attr('#i', 'src')).to.equal(at('parts/img.png'));
    expect(attr('#i', 'srcset')).to.equal(`${at('parts/img.png')} 1x, ${at('big.png')} 2x`);
    expect(attr('#v', 'poster')).to.equal(at('parts/poster.jpg'));
    expect(attr('#src', 'src')).to.equal(at('parts/clip.webm'));
    expect(attr('#st', 'style')).to.include(at('parts/bg.png'));
    expect(attr('#keep', 'src')).to.equal('data:image/png;base64,iVBORw0KGgo=');
    expect(attr('#hash', 'href')).to.equal('#here');
    expect(attr('#abs', 'src')).to.equal('https://cdn.example/x.png');
    expect(doc.querySelector(`style[${FrameAttr.instanceStyle}]`)!.textContent).to.include(at('parts/tile.png'));
    // The entry's own relative URLs stay relative: <base> resolves them against the entry.
    expect(attr('#own', 'src')).to.equal('own.png');
  });
});

describe('compileComposition: image variable values', () => {
  const IMAGES = [
    { id: 'relative', type: 'image', label: 'R', default: 'img/photo.png' },
    { id: 'object', type: 'image', label: 'O', default: { url: 'img/o.png' } },
    { id: 'absolute', type: 'image', label: 'A', default: 'https://cdn.example/a.png' },
    { id: 'data', type: 'image', label: 'D', default: 'data:image/png;base64,iVBORw0KGgo=' },
    { id: 'refused', type: 'image', label: 'J', default: 'javascript:alert(1)' },
    { id: 'name', type: 'string', label: 'N', default: 'img/not-a-url.png' },
  ];
  const sub = (inner = '') =>
    `<template><div data-composition-id="s" data-composition-variables='${JSON.stringify(IMAGES)}'>${inner}</div></template>`;

  it('resolves relative image defaults of a sub-composition against its URL, and nothing else', async () => {
    const { html } = await compile({
      'index.html': entry('<div id="h" data-composition-src="parts/s.html"></div>'),
      'parts/s.html': sub(),
    });
    const declared = JSON.parse(parse(html).getElementById('h')!.getAttribute('data-composition-variables')!) as {
      id: string;
      default: unknown;
    }[];
    expect(Object.fromEntries(declared.map((declaration) => [declaration.id, declaration.default]))).to.deep.equal({
      relative: at('parts/img/photo.png'),
      object: { url: at('parts/img/o.png') },
      absolute: 'https://cdn.example/a.png',
      data: 'data:image/png;base64,iVBORw0KGgo=',
      refused: 'javascript:alert(1)',
      name: 'img/not-a-url.png',
    });
  });

  it('resolves relative image host values against the file that names the host', async () => {
    const { html } = await compile({
      'index.html': entry('<div data-composition-src="a/outer.html"></div>'),
      'a/outer.html': `<template><div data-composition-id="outer"><div id="h" data-composition-src="b/s.html" data-variable-values='{"relative":"pics/x.png","name":"pics/y.png"}'></div></div></template>`,
      'a/b/s.html': sub(),
    });
    const values = JSON.parse(parse(html).getElementById('h')!.getAttribute('data-variable-values')!);
    expect(values).to.deep.equal({ relative: at('a/pics/x.png'), name: 'pics/y.png' });
  });

  it('leaves declarations and values with nothing to resolve as authored, byte for byte', async () => {
    const declarations = `[ {"id": "photo", "type": "image", "label": "P", "default": "https://cdn.example/p.png"} ]`;
    const values = `{ "photo": "data:image/png;base64,iVBORw0KGgo=" }`;
    const { html } = await compile({
      'index.html': entry(`<div id="h" data-composition-src="s.html" data-variable-values='${values}'></div>`),
      's.html': `<template><div data-composition-id="s" data-composition-variables='${declarations}'></div></template>`,
    });
    const host = parse(html).getElementById('h')!;
    expect(host.getAttribute('data-composition-variables')).to.equal(declarations);
    expect(host.getAttribute('data-variable-values')).to.equal(values);
  });

  it('leaves malformed declarations and values as written, for the runtime to report', async () => {
    const { html } = await compile({
      'index.html': entry(`<div id="h" data-composition-src="s.html" data-variable-values='{oops'></div>`),
      's.html': `<template><div data-composition-id="s" data-composition-variables='[not json'></div></template>`,
    });
    const host = parse(html).getElementById('h')!;
    expect(host.getAttribute('data-composition-variables')).to.equal('[not json');
    expect(host.getAttribute('data-variable-values')).to.equal('{oops');
  });
});
