// Issue 8, item 4, as the element meets it: a composition's sub-compositions outside its folder are refused unless
// the host lists their folder in `allowCompositionReadsUnder`; refusals that leave a file for the frame to load
// itself are warnings, not `error` events.
import { expect } from '@open-wc/testing';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { CompileIssueCode } from '../../src/runtime/compile/compile.js';
import { nextEvent, probe, track, whenReady } from '../elements/helpers.js';

const ENTRY = '/test/fixtures/security/comp/uses-shared.html';

function mountWith(
  allowed?: readonly string[],
  src = ENTRY,
): { element: FxComposition; errors: CustomEvent<FxErrorDetail>[] } {
  const element = document.createElement('fx-composition');
  element.setAttribute('style', 'display:block;width:320px;height:180px');
  if (allowed) element.allowCompositionReadsUnder = allowed;
  const errors: CustomEvent<FxErrorDetail>[] = [];
  element.addEventListener('error', (event) => errors.push(event));
  element.src = src;
  return { element: track(document.body, element), errors };
}

const codes = (element: FxComposition) =>
  element.metadata?.issues.map((found) => `${found.severity} ${found.code}`) ?? [];

describe('element reads: the entry’s folder only, unless the host allows more', () => {
  it('refuses a sub-composition outside the folder, with an error event, and still plays', async () => {
    const { element, errors } = mountWith();
    await whenReady(element);
    expect(errors.map((event) => event.detail.code)).to.deep.equal([CompileIssueCode.urlOutsideScope]);
    expect(codes(element)).to.include(`error ${CompileIssueCode.urlOutsideScope}`);
    expect(await probe(element, { ask: 'text', selector: '.shared-card' })).to.equal(null);
  });

  it('reports a stylesheet left for the frame as a warning, not an error event', async () => {
    const { element, errors } = mountWith(undefined, '/test/fixtures/security/comp/uses-shared-style.html');
    await whenReady(element);
    expect(codes(element)).to.deep.equal([`warning ${CompileIssueCode.urlOutsideScope}`]);
    expect(errors).to.deep.equal([]);
  });

  it('reads a folder the host lists in allowCompositionReadsUnder', async () => {
    const { element, errors } = mountWith(['/test/fixtures/security/shared/']);
    await whenReady(element);
    expect(errors).to.deep.equal([]);
    expect(codes(element)).to.deep.equal([]);
    expect(await probe(element, { ask: 'text', selector: '.shared-card' })).to.equal('shared card');
    expect(await probe(element, { ask: 'style', selector: '.shared-card', property: 'color' })).to.equal(
      'rgb(4, 5, 6)',
    );
  });

  it('reloads when the list changes', async () => {
    const { element } = mountWith();
    await whenReady(element);
    const reloaded = nextEvent(element, 'ready');
    element.allowCompositionReadsUnder = ['/test/fixtures/security/shared/'];
    await reloaded;
    expect(await probe(element, { ask: 'text', selector: '.shared-card' })).to.equal('shared card');
  });
});
