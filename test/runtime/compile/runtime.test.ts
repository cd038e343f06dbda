// How the compile writes the runtime into the document: a <script src> or inline, and the frame runs it.
import { expect } from '@open-wc/testing';
import { CompileIssueCode } from '../../../src/runtime/compile/compile.js';
import { openCompiled } from '../compiled-frame.js';
import { RUNTIME_URL, compile, compileError, parse, entry } from './helpers.js';

describe('compileComposition: the runtime', () => {
  it('names runtimeUrl in a <script src> whose load failure is posted to the parent', async () => {
    const doc = parse((await compile({ 'index.html': entry('') })).html);
    const runtime = doc.head.querySelector(`script[src="${RUNTIME_URL}"]`);
    expect(runtime?.getAttribute('onerror')).to.contain('fx:runtime-failed');
  });

  it('writes runtimeScript inline instead (with the nonce, and inert to "</script")', async () => {
    const runtimeScript = 'window.__ran = "</script><p id=escaped>";';
    const compiled = await compile(
      { 'index.html': entry('') },
      { runtimeUrl: undefined, runtimeScript, nonce: 'n0nce' },
    );
    const doc = parse(compiled.html);
    expect(doc.querySelector('script[src]')).to.equal(null);
    expect(doc.querySelector('#escaped')).to.equal(null);
    const inline = [...doc.head.querySelectorAll('script:not([type])')];
    expect(inline.length).to.equal(1);
    expect(inline[0]!.getAttribute('nonce')).to.equal('n0nce');
  });

  it('runs the real runtime written inline', async () => {
    const runtimeScript = await (await fetch(RUNTIME_URL)).text();
    const compiled = await compile(
      { 'index.html': entry('<p id="p">hi</p>') },
      { runtimeUrl: undefined, runtimeScript },
    );
    const view = await openCompiled(compiled);
    expect(view.__fx.duration).to.equal(2);
  });

  it('neither runtimeUrl nor runtimeScript: "compile_options_invalid"', async () => {
    expect(await compileError({ 'index.html': entry('') }, { runtimeUrl: undefined })).to.equal(
      CompileIssueCode.optionsInvalid,
    );
  });
});
