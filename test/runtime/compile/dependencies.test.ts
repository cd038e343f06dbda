import { expect } from '@open-wc/testing';
import { referencedUrls } from '../../../src/runtime/compile/dependencies.js';
import { parseHtml } from '../../../src/runtime/html.js';

const BASE = 'https://site.example/comp/index.html';

describe('referencedUrls', () => {
  it('finds every file a document names, resolved against its base, without data: and navigation links', () => {
    const doc = parseHtml(`<!doctype html>
      <html data-composition-variables='[{"id":"pic","type":"image","default":"img/default.png"},{"id":"font","type":"font","default":{"name":"F","source":"fonts/f.woff2"}},{"id":"t","type":"string","default":"not/a/file.png"}]'
            data-variable-values='{"pic":{"url":"img/chosen.png"}}'>
      <head><link rel="icon" href="icon.png"><style>.a { background: url("img/bg.png") } .b { background: url(data:image/png;base64,AA==) }</style></head>
      <body>
        <img src="img/a.png" srcset="img/a-1x.png 1x, img/a-2x.png 2x">
        <video poster="img/poster.jpg"><source src="media/clip.mp4"><track src="subs.vtt"></video>
        <audio src="/root/music.mp3"></audio>
        <div style="background-image: url('img/inline.png')"></div>
        <svg><image href="img/svg.png"></image><use xlink:href="sprite.svg#a"></use></svg>
        <a href="page.html">link</a><img src="#frag"><img src="javascript:alert(1)"><img src="">
      </body></html>`);
    expect(referencedUrls(doc, BASE)).to.deep.equal([
      'https://site.example/comp/fonts/f.woff2',
      'https://site.example/comp/icon.png',
      'https://site.example/comp/img/a-1x.png',
      'https://site.example/comp/img/a-2x.png',
      'https://site.example/comp/img/a.png',
      'https://site.example/comp/img/bg.png',
      'https://site.example/comp/img/chosen.png',
      'https://site.example/comp/img/default.png',
      'https://site.example/comp/img/inline.png',
      'https://site.example/comp/img/poster.jpg',
      'https://site.example/comp/img/svg.png',
      'https://site.example/comp/media/clip.mp4',
      'https://site.example/comp/sprite.svg',
      'https://site.example/comp/subs.vtt',
      'https://site.example/root/music.mp3',
    ]);
  });

  it('reads image and font variables declared in the object form too', () => {
    const doc = parseHtml(`<!doctype html>
      <html data-composition-variables='{"pic":{"type":"image","default":"img/default.png"},"font":{"type":"font","default":{"name":"F","source":"f.woff2"}}}'
            data-variable-values='{"pic":"img/chosen.png"}'><body></body></html>`);
    expect(referencedUrls(doc, BASE)).to.deep.equal([
      'https://site.example/comp/f.woff2',
      'https://site.example/comp/img/chosen.png',
      'https://site.example/comp/img/default.png',
    ]);
  });
});
