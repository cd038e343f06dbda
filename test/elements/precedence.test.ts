import { expect } from '@open-wc/testing';
import type { FxVariablesChangeDetail } from '../../src/elements/internal/events.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { compositionHtml, mount, nextEvent, probe, sleep, whenReady } from './helpers.js';
import { HOSTILE_URLS, PWNED_MESSAGE, vectorLabel, vectorValue } from '../runtime/hostile-urls.js';

const FIXTURE = '/test/fixtures/precedence/index.html';
const fixtureUrl = (path: string) => new URL(`/test/fixtures/precedence/${path}`, location.href).href;

const texts = (el: FxComposition, selector: string) => probe<string[]>(el, { ask: 'texts', selector });

describe('<fx-composition> precedence: default < host data-variable-values < overrides (top level only)', () => {
  it('is accessible', async () => {
    const el = await whenReady(mount({ src: FIXTURE }));
    await expect(el).to.be.accessible();
  });

  it('declared defaults fill every layer when nothing else is given', async () => {
    const el = await whenReady(mount({ src: FIXTURE }));
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Entry default');
    expect(await texts(el, '#plain .title, #plain .name')).to.deep.equal(['Card default', 'Nobody']);
  });

  it('host data-variable-values beat the instance’s defaults', async () => {
    const el = await whenReady(mount({ src: FIXTURE }));
    expect(await texts(el, '#hosted .title, #hosted .name')).to.deep.equal(['Host title', 'Ada']);
  });

  it('overrides beat defaults at the top level and never reach sub-compositions', async () => {
    const el = await whenReady(
      mount({ src: FIXTURE, variables: JSON.stringify({ title: 'Override', name: 'Intruder' }) }),
    );
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Override');
    expect(await texts(el, '.slot .title')).to.deep.equal(['Card default', 'Host title', 'Card default']);
    expect(await texts(el, '.slot .name')).to.deep.equal(['Nobody', 'Ada', 'Nobody']);
  });

  it('CSS custom properties follow the same layers', async () => {
    const el = await whenReady(mount({ src: FIXTURE, variables: JSON.stringify({ title: 'Override' }) }));
    expect(await probe(el, { ask: 'style', selector: 'html', property: '--title' })).to.equal('Override');
    expect(await probe(el, { ask: 'style', selector: '#plain', property: '--title' })).to.equal('Card default');
    expect(await probe(el, { ask: 'style', selector: '#hosted', property: '--title' })).to.equal('Host title');
  });

  it('a live override update changes the top level only', async () => {
    const el = await whenReady(mount({ src: FIXTURE }));
    const change = nextEvent<CustomEvent<FxVariablesChangeDetail>>(el, 'variableschange');
    el.variables = { title: 'Live', name: 'Live name' };
    expect((await change).detail.values.title).to.equal('Live');
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Live');
    expect(await texts(el, '.slot .title')).to.deep.equal(['Card default', 'Host title', 'Card default']);
    expect(await texts(el, '.slot .name')).to.deep.equal(['Nobody', 'Ada', 'Nobody']);
  });

  it('an undeclared override is passed to top-level scripts and reported as "undeclared"', async () => {
    const el = mount({ src: FIXTURE, variables: JSON.stringify({ name: 'Intruder' }) });
    const change = await nextEvent<CustomEvent<FxVariablesChangeDetail>>(el, 'variableschange');
    expect(change.detail.values.name).to.equal('Intruder');
    const undeclared = change.detail.issues.filter((found) => found.code === 'undeclared');
    expect(undeclared.map((found) => found.path)).to.deep.equal([['overrides', 'name']]);
  });

  it('a declared image default of a sub-composition resolves against the sub-composition’s URL', async () => {
    const el = await whenReady(mount({ src: FIXTURE }));
    expect(await probe(el, { ask: 'property', selector: '#plain .photo', name: 'src' })).to.equal(
      fixtureUrl('parts/photo.svg'),
    );
  });
});

describe('<fx-composition> CSS custom properties stay out of sub-compositions', () => {
  // The top level declares `title` and `accent`; the card declares `title` but not `accent`, and the top-level
  // stylesheet colours the card's title with `var(--accent, …)`.
  const FALLBACK = 'rgb(1, 2, 3)';
  const isolated = () =>
    compositionHtml({
      variables: [
        { id: 'title', type: 'string', label: 'Title', default: 'Top default' },
        { id: 'accent', type: 'color', label: 'Accent', default: '#112233' },
      ],
      head: `<style>#top, .slot .title { color: var(--accent, ${FALLBACK}); }</style>`,
      body: '<p id="top">top</p><div id="card" class="slot" data-composition-src="/test/fixtures/precedence/parts/card.html"></div>',
    });
  const style = (el: FxComposition, selector: string, property: string) =>
    probe<string>(el, { ask: 'style', selector, property });

  it('a top-level value does not reach an instance that does not declare it', async () => {
    const el = await whenReady(mount({ variables: JSON.stringify({ accent: '#ff0000' }) }, { srcdoc: isolated() }));
    expect(await style(el, 'html', '--accent')).to.equal('#ff0000');
    expect(await style(el, '#top', 'color')).to.equal('rgb(255, 0, 0)');
    expect(await style(el, '#card', '--accent')).to.equal('');
    expect(await style(el, '#card .title', '--accent')).to.equal('');
  });

  it('var(--id, fallback) inside the instance takes its fallback', async () => {
    const el = await whenReady(mount({}, { srcdoc: isolated() }));
    expect(await style(el, '#card .title', 'color')).to.equal(FALLBACK);
  });

  it('an instance that declares the id keeps its own value, not the override', async () => {
    const el = await whenReady(mount({ variables: JSON.stringify({ title: 'Override' }) }, { srcdoc: isolated() }));
    expect(await style(el, 'html', '--title')).to.equal('Override');
    expect(await style(el, '#card', '--title')).to.equal('Card default');
    expect(await style(el, '#card .title', '--title')).to.equal('Card default');
  });

  it('a nested instance sees neither the top level’s nor its enclosing instance’s values', async () => {
    const srcdoc = compositionHtml({
      variables: [{ id: 'accent', type: 'color', label: 'Accent', default: '#112233' }],
      // The frame declares `tint`, the card inside it does not.
      head: `<style>.own, .slot .title { color: var(--tint, ${FALLBACK}); }</style>`,
      body: '<div id="outer" data-composition-src="/test/fixtures/css-isolation/frame.html"></div>',
    });
    const el = await whenReady(mount({ variables: JSON.stringify({ accent: '#ff0000' }) }, { srcdoc }));
    expect(await style(el, '#outer .own', 'color')).to.equal('rgb(0, 0, 255)');
    expect(await style(el, '#outer .inner .title', '--accent')).to.equal('');
    expect(await style(el, '#outer .inner .title', 'color')).to.equal(FALLBACK);
    expect(await style(el, '#outer .inner .title', '--title')).to.equal('Card default');
  });

  it('stays isolated through live updates, undeclared override keys included', async () => {
    const el = await whenReady(mount({}, { srcdoc: isolated() }));
    const change = nextEvent(el, 'variableschange');
    el.variables = { accent: '#00ff00', title: 'Live', extra: 'leak' };
    await change;
    expect(await style(el, 'html', '--extra')).to.equal('leak');
    expect(await style(el, '#top', 'color')).to.equal('rgb(0, 255, 0)');
    expect(await style(el, '#card .title', '--extra')).to.equal('');
    expect(await style(el, '#card .title', 'color')).to.equal(FALLBACK);
    expect(await style(el, '#card .title', '--title')).to.equal('Card default');
  });
});

describe('<fx-composition> unsafe data-var-src values are refused inside the frame', () => {
  const pwned: string[] = [];
  const onMessage = (event: MessageEvent) => {
    if (event.data === PWNED_MESSAGE) pwned.push(String(event.origin));
  };
  before(() => window.addEventListener('message', onMessage));
  after(() => window.removeEventListener('message', onMessage));
  beforeEach(() => (pwned.length = 0));

  const AUTHORED = fixtureUrl('../basic/pic.svg');
  // A spread over every family of refused vectors (each one loads a composition, so not all of them).
  const refused = HOSTILE_URLS.filter(
    (vector) => vector.verdict === 'refused' && typeof vector.input === 'string' && /[a-z]/i.test(vector.input),
  ).filter((_, index) => index % 7 === 0);

  for (const vector of refused) {
    it(`override ${vectorLabel(vector)}: authored src kept, "binding_url_refused"`, async () => {
      const el = mount({ src: FIXTURE });
      el.variables = { logo: vectorValue(vector) };
      const change = await nextEvent<CustomEvent<FxVariablesChangeDetail>>(el, 'variableschange');
      await whenReady(el);
      expect(await probe(el, { ask: 'property', selector: '#logo', name: 'src' })).to.equal(AUTHORED);
      expect(change.detail.issues.map((found) => found.code)).to.include('binding_url_refused');
    });
  }

  it('a live update to javascript: keeps the authored src and reports it', async () => {
    const el = await whenReady(mount({ src: FIXTURE }));
    expect(await probe(el, { ask: 'property', selector: '#logo', name: 'src' })).to.equal(
      fixtureUrl('../basic/logo.svg'),
    );
    const change = nextEvent<CustomEvent<FxVariablesChangeDetail>>(el, 'variableschange');
    el.variables = { logo: `javascript:parent.postMessage('${PWNED_MESSAGE}','*')` };
    const { detail } = await change;
    expect(await probe(el, { ask: 'property', selector: '#logo', name: 'src' })).to.equal(AUTHORED);
    // Each refusal once: the top level's, and the one of the instance whose host value is unsafe.
    expect(
      detail.issues.filter((found) => found.code === 'binding_url_refused').map((found) => found.path),
    ).to.deep.equal([
      ['data-var-src', 'logo'],
      ['card-3', 'data-var-src', 'photo'],
    ]);
    await sleep(200);
    expect(pwned).to.deep.equal([]);
  });

  it('data:text/html in a sub-composition host value keeps that instance’s authored src', async () => {
    const el = await whenReady(mount({ src: FIXTURE }));
    expect(await probe(el, { ask: 'property', selector: '#unsafe .photo', name: 'src' })).to.equal(
      fixtureUrl('parts/fallback.svg'),
    );
    expect(await probe(el, { ask: 'property', selector: '#hosted .photo', name: 'src' })).to.equal(
      fixtureUrl('parts/photo.svg'),
    );
    await sleep(200);
    expect(pwned).to.deep.equal([]);
  });

  it('an inline composition keeps its authored src for data:text/html', async () => {
    const srcdoc = compositionHtml({
      variables: [{ id: 'pic', type: 'image', label: 'Pic', default: '/test/fixtures/basic/logo.svg' }],
      body: '<img id="pic" data-var-src="pic" src="/test/fixtures/basic/pic.svg" alt="">',
    });
    const el = mount(
      {
        variables: JSON.stringify({
          pic: `data:text/html,<script>parent.postMessage('${PWNED_MESSAGE}','*')</script>`,
        }),
      },
      { srcdoc },
    );
    await whenReady(el);
    expect(await probe(el, { ask: 'property', selector: '#pic', name: 'src' })).to.equal(AUTHORED);
    await sleep(200);
    expect(pwned).to.deep.equal([]);
  });
});
