import { expect } from '@open-wc/testing';
import '../../src/elements/panel/define.js';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { attribute, compositionHtml, mount, nextEvent, probe, sleep, track, waitFor, whenReady } from './helpers.js';

// What a page that listens late still hears: a framework hydrating server-rendered markup attaches its handlers
// after the element started loading (and may after it got ready or failed).
const DECLARATIONS = [{ id: 'title', type: 'string', label: 'Title', default: 'Default' }];
const SOURCE = compositionHtml({ duration: 2, variables: DECLARATIONS, body: '<h1 data-var-text="title">x</h1>' });

/** The element as server-rendered markup, parsed into the page (upgraded as it is inserted). */
function serverRendered(attributes: string): FxComposition {
  const host = track(document.body, document.createElement('div'));
  host.innerHTML = `<fx-composition ${attributes} srcdoc='${attribute(SOURCE)}' style="display:block;width:320px;height:180px"></fx-composition>`;
  return host.querySelector('fx-composition')!;
}

const untilReady = (el: FxComposition) => waitFor(() => el.ready, 'ready');
const tick = () => sleep(0);

describe('<fx-composition> events a late listener still hears', () => {
  it('a `ready` nobody heard reaches the listeners added after it, once each, from the element', async () => {
    const el = mount({}, { srcdoc: SOURCE });
    await untilReady(el);
    const heard: [string, EventTarget | null, EventTarget | null][] = [];
    el.addEventListener('ready', (event) => heard.push(['first', event.target, event.currentTarget]));
    el.addEventListener('ready', function (this: FxComposition) {
      heard.push(['second', this, null]);
    });
    await tick();
    expect(heard).to.deep.equal([
      ['first', el, el],
      ['second', el, null],
    ]);
    await sleep(100);
    expect(heard.length, 'each once').to.equal(2);
  });

  it('a `ready` the page heard is not heard again by a later listener', async () => {
    const el = await whenReady(mount({}, { srcdoc: SOURCE }));
    let late = 0;
    el.addEventListener('ready', () => late++);
    await sleep(50);
    expect(late).to.equal(0);
  });

  it('a late `once` listener hears it and goes; a removed one never does', async () => {
    const el = mount({}, { srcdoc: SOURCE });
    await untilReady(el);
    let once = 0;
    let removed = 0;
    const gone = () => removed++;
    el.addEventListener('ready', () => once++, { once: true });
    el.addEventListener('ready', gone);
    el.removeEventListener('ready', gone);
    await tick();
    expect([once, removed]).to.deep.equal([1, 0]);
  });

  it('a listener added late still hears the next `ready` (a new source) as usual', async () => {
    const el = mount({}, { srcdoc: SOURCE });
    await untilReady(el);
    let count = 0;
    el.addEventListener('ready', () => count++);
    await tick();
    el.srcdoc = SOURCE.replace('duration', 'data-other duration');
    await waitFor(() => count === 2, 'the next ready');
    await sleep(100);
    expect(count).to.equal(2);
  });

  it("a bound panel's listening is the SDK's own: the page's late listener still hears `ready`", async () => {
    const el = mount({}, { srcdoc: SOURCE });
    el.id = 'late-panelled';
    track(document.body, Object.assign(document.createElement('fx-variables-panel'), { htmlFor: 'late-panelled' }));
    document.body.lastElementChild!.setAttribute('for', 'late-panelled');
    await untilReady(el);
    let heard = 0;
    el.addEventListener('ready', () => heard++);
    await tick();
    expect(heard).to.equal(1);
  });

  it('an invalid `variables` in server-rendered markup: `errors` keeps it, the stage shows it, a late listener hears it', async () => {
    const el = serverRendered(`variables='{"title": "unclosed'`);
    await untilReady(el);
    expect(el.errors.map((error) => error.code)).to.deep.equal(['variables_json_invalid']);
    const heard: FxErrorDetail[] = [];
    el.addEventListener('error', (event) => heard.push(event.detail));
    await tick();
    expect(heard.map((error) => error.code)).to.deep.equal(['variables_json_invalid']);
    await el.updateComplete;
    const hint = el.shadowRoot!.querySelector('[part="errors"]');
    expect(hint?.textContent).to.contain('"variables" must be a JSON object');
    await expect(el).to.be.accessible();
  });

  it('an error heard in time is not heard again; `errors` still lists it', async () => {
    const el = mount({}, { srcdoc: SOURCE });
    const error = nextEvent(el, 'error');
    el.variables = '[1, 2]';
    await error;
    let late = 0;
    el.addEventListener('error', () => late++);
    await tick();
    expect(late).to.equal(0);
    expect(el.errors.map((found) => found.code)).to.deep.equal(['variables_json_invalid']);
  });

  it('a new source starts a new list', async () => {
    const el = mount({}, { srcdoc: SOURCE });
    el.variables = '[1]';
    await untilReady(el);
    expect(el.errors.length).to.equal(1);
    el.srcdoc = SOURCE.replace('duration', 'data-next duration');
    await nextEvent(el, 'ready');
    expect(el.errors).to.deep.equal([]);
    expect(el.shadowRoot!.querySelector('[part="errors"]')).to.equal(null);
  });

  it('`variables="[object Object]"` (an SSR of the object) is no error; the property set on hydration wins', async () => {
    const el = serverRendered('variables="[object Object]"');
    el.variables = { title: 'Hydrated' };
    await untilReady(el);
    expect(await probe(el, { ask: 'text', selector: 'h1' })).to.equal('Hydrated');
    expect(el.errors).to.deep.equal([]);
  });
});
