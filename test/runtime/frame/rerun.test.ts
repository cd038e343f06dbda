// Which compiled bodies the frame runs again in place (rerun.ts): what it refuses is left to a reload.
import { expect } from '@open-wc/testing';
import { rerunnableBody } from '../../../src/runtime/frame/rerun.js';

const page = (body: string) =>
  `<!doctype html><html><head><script src="/runtime.js"></script></head><body>${body}</body></html>`;
const READS = `<script>document.title = window.__fx.getVariables().title;</script>`;

describe('rerunnableBody', () => {
  it('takes a body of inline classic scripts; its last one runs in a block', () => {
    const found = rerunnableBody(page(`<div id="a"></div><script>var x = 1;</script>${READS}`));
    expect(found?.inBlock).to.equal(1);
    expect(found?.body.querySelector('#a')).to.not.equal(null);
  });

  it('ignores head scripts and data blocks (JSON, templates), which do not run again', () => {
    const found = rerunnableBody(
      page(`<script type="application/json">{"a": 1}</script>${READS}<script type="text/x-template"><p></p></script>`),
    );
    expect(found?.inBlock).to.equal(0);
  });

  it('takes a body whose last script declares top-level let, const or class (it runs in a block)', () => {
    expect(rerunnableBody(page(`<script>var a = 1;</script><script>const tl = 1;\nlet b = 2;</script>`))).to.not.equal(
      undefined,
    );
  });

  it('takes earlier scripts whose let and const are inside functions', () => {
    const inner = `<script>\n  (function () {\n    const tl = 1;\n  })();\n</script>`;
    expect(rerunnableBody(page(`${inner}${READS}`))?.inBlock).to.equal(1);
  });

  for (const [what, body] of [
    ['a fetched script', `<script src="lib.js"></script>${READS}`],
    ['a module', `<script type="module">window.x = 1;</script>${READS}`],
    ['an iframe', `<iframe src="about:blank"></iframe>${READS}`],
    ['an object', `<object data="x.svg"></object>${READS}`],
    ['document.write', `<script>document.write('<p>x</p>');</script>${READS}`],
    ['document.writeln', `<script>document . writeln('x');</script>${READS}`],
    ['an earlier script declaring a top-level const', `<script>\nconst tl = 1;\n</script>${READS}`],
    ['an earlier script declaring a top-level class', `<script>class A {}</script>${READS}`],
    ['an earlier minified script starting with let', `<script>let a=1;window.b=a;</script>${READS}`],
  ])
    it(`refuses a body with ${what}`, () => {
      expect(rerunnableBody(page(body!)) === undefined).to.equal(true);
    });

  it('takes a body with media (the rerun keeps the elements on stage)', () => {
    expect(rerunnableBody(page(`<video src="clip.mp4"></video><audio src="a.mp3"></audio>${READS}`))?.inBlock).to.equal(
      0,
    );
  });

  it('takes a body without scripts (bindings only): nothing runs again', () => {
    expect(rerunnableBody(page('<p data-var-text="title"></p>'))?.inBlock).to.equal(-1);
  });
});
