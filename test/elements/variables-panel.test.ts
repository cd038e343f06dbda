import { expect } from '@open-wc/testing';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import type { FxVariablesPanel } from '../../src/elements/panel/fx-variables-panel.js';
import { frameOf, nextEvent, probe, probeUntil, recordEvents, sleep, waitFor } from './helpers.js';
import {
  FONT_URL,
  WIDE_WIDTH,
  choose,
  inField,
  mountPair,
  partOf,
  pickFiles,
  pngFile,
  typeInto,
} from './variables-panel-helpers.js';

const RELOAD_SETTLE_MS = 400; // past the element's reload debounce

/** Runs `change` and checks it reached the same frame live: no reload, no new load events. */
async function live(composition: FxComposition, change: () => unknown | Promise<unknown>): Promise<void> {
  const frame = frameOf(composition);
  const seen = recordEvents(composition, ['loadstart', 'ready', 'loadedmetadata']);
  const changed = nextEvent(composition, 'variableschange');
  await change();
  await changed;
  await sleep(RELOAD_SETTLE_MS);
  expect(frameOf(composition) === frame, 'the same frame').to.equal(true);
  expect(seen).to.deep.equal([]);
}

const pill = (panel: FxVariablesPanel) => partOf(panel, 'pill').textContent!.trim();

describe('<fx-variables-panel>', () => {
  it('is accessible, with issues, badges and the undeclared list showing', async () => {
    const { panel } = await mountPair({ body: `${'<p data-var-text="subtitle"></p>'}<h1 data-var-text="title"></h1>` });
    typeInto(inField(panel, 'title'), 'far too long a title');
    await panel.updateComplete;
    await expect(panel).to.be.accessible();
  });

  it('shows an input per declared variable, labelled', async () => {
    const { panel } = await mountPair();
    const labels = [...panel.shadowRoot!.querySelectorAll('[part~="field"]')].map((field) =>
      field.querySelector('[part~="label"]')!.textContent!.trim(),
    );
    expect(labels).to.deep.equal(['Title', 'Size (px)', 'Accent', 'Shown', 'Mood', 'Face', 'Logo', 'Extra']);
    expect(inField(panel, 'title').placeholder).to.equal('Your title');
    expect(inField(panel, 'size')).to.include({ type: 'number', min: '10', max: '40', step: '2', value: '20' });
    expect(inField<HTMLSelectElement>(panel, 'mood', 'select').value).to.equal('calm');
  });

  it('text writes a live override and counts against maxLength', async () => {
    const { composition, panel } = await mountPair();
    await live(composition, () => typeInto(inField(panel, 'title'), 'Hi there'));
    expect(composition.variables).to.deep.equal({ title: 'Hi there' });
    expect(await probe(composition, { ask: 'text', selector: '#title' })).to.equal('Hi there');
    await panel.updateComplete;
    expect(partOf(panel, 'counter').textContent!.trim()).to.equal('8 / 10');
  });

  it('number writes a live override', async () => {
    const { composition, panel } = await mountPair();
    await live(composition, () => typeInto(inField(panel, 'size'), '32'));
    expect(composition.variables).to.deep.equal({ size: 32 });
    expect(await probe(composition, { ask: 'style', selector: '#title', property: 'font-size' })).to.equal('32px');
  });

  it('color writes a live override from the picker and from the text entry', async () => {
    const { composition, panel } = await mountPair();
    await live(composition, () => typeInto(inField(panel, 'accent', 'input[type="color"]'), '#00ff00'));
    expect(await probe(composition, { ask: 'style', selector: '#title', property: 'color' })).to.equal(
      'rgb(0, 255, 0)',
    );
    await live(composition, () => typeInto(inField(panel, 'accent', 'input[type="text"]'), '#0000ff'));
    expect(composition.variables).to.deep.equal({ accent: '#0000ff' });
    expect(await probe(composition, { ask: 'style', selector: '#title', property: 'color' })).to.equal(
      'rgb(0, 0, 255)',
    );
    await panel.updateComplete;
    expect(inField(panel, 'accent', 'input[type="color"]').value).to.equal('#0000ff');
  });

  it('checkbox writes a live override', async () => {
    const { composition, panel } = await mountPair();
    await live(composition, () => inField(panel, 'shown').click());
    expect(composition.variables).to.deep.equal({ shown: false });
    expect(await probe(composition, { ask: 'text', selector: '#shown' })).to.equal('false');
  });

  it('select writes a live override', async () => {
    const { composition, panel } = await mountPair();
    await live(composition, () => choose(inField(panel, 'mood', 'select'), 'loud'));
    expect(await probe(composition, { ask: 'text', selector: '#mood' })).to.equal('loud');
  });

  it('font family and font file write a live override', async () => {
    const { composition, panel } = await mountPair();
    await live(composition, () => typeInto(inField(panel, 'face'), 'PickedFace'));
    expect(composition.variables).to.deep.equal({ face: 'PickedFace' });
    const font = new File([await (await fetch(FONT_URL)).blob()], 'fx-wide.ttf');
    await live(composition, () => pickFiles(inField(panel, 'face', 'input[type="file"]'), [font]));
    const value = composition.variables.face as { name: string; source: string };
    expect(value.name).to.equal('PickedFace');
    expect(value.source.startsWith('data:font/ttf;base64,')).to.equal(true);
    await waitFor(
      async () => (await probe(composition, { ask: 'width', selector: '#wide' })) === WIDE_WIDTH,
      'the chosen font to apply',
    );
  });

  it('image URL, picked file and dropped file write a live override', async () => {
    const { composition, panel } = await mountPair();
    const url = new URL('/test/fixtures/media/frame.png', location.href).href;
    await live(composition, () => typeInto(inField(panel, 'logo'), url));
    expect(await probe(composition, { ask: 'attribute', selector: '#logo', name: 'src' })).to.equal(url);
    await live(composition, async () => pickFiles(inField(panel, 'logo', 'input[type="file"]'), [await pngFile()]));
    const picked = composition.variables.logo as string;
    expect(picked.startsWith('data:image/png;base64,')).to.equal(true);
    expect(
      await probeUntil(
        composition,
        { ask: 'property', selector: '#logo', name: 'naturalWidth' },
        (width) => width === 8,
      ),
    ).to.equal(8);
    const transfer = new DataTransfer();
    transfer.items.add(await pngFile('dropped.png', '#0000ff'));
    await live(composition, () =>
      partOf(panel, 'drop-zone').dispatchEvent(
        new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
      ),
    );
    expect(composition.variables.logo).to.not.equal(picked);
    expect(await probe(composition, { ask: 'attribute', selector: '#logo', name: 'src' })).to.equal(
      composition.variables.logo,
    );
  });

  it('the pill says "defaults", then how many values are custom', async () => {
    const { panel } = await mountPair();
    expect(pill(panel)).to.equal('defaults');
    expect(partOf(panel, 'pill').hasAttribute('data-custom')).to.equal(false);
    typeInto(inField(panel, 'title'), 'A');
    await panel.updateComplete;
    expect(pill(panel)).to.equal('1 custom value');
    typeInto(inField(panel, 'size'), '12');
    await panel.updateComplete;
    expect(pill(panel)).to.equal('2 custom values');
    expect(partOf(panel, 'pill').hasAttribute('data-custom')).to.equal(true);
  });

  it('resets one field, live, and then all', async () => {
    const { composition, panel } = await mountPair();
    typeInto(inField(panel, 'title'), 'Changed');
    typeInto(inField(panel, 'size'), '30');
    await panel.updateComplete;
    await live(composition, () => inField<HTMLButtonElement>(panel, 'title', '[part~="reset-field"]').click());
    expect(composition.variables).to.deep.equal({ size: 30 });
    expect(await probe(composition, { ask: 'text', selector: '#title' })).to.equal('Hello');
    await panel.updateComplete;
    expect(inField(panel, 'title').value).to.equal('Hello');
    expect(() => inField(panel, 'title', '[part~="reset-field"]')).to.throw();
    await live(composition, () => partOf<HTMLButtonElement>(panel, 'reset-all').click());
    expect(composition.variables).to.deep.equal({});
    await panel.updateComplete;
    expect(pill(panel)).to.equal('defaults');
    expect(partOf<HTMLButtonElement>(panel, 'reset-all').disabled).to.equal(true);
  });

  it('follows overrides set on the composition by others', async () => {
    const { composition, panel } = await mountPair();
    const changed = nextEvent(composition, 'variableschange');
    composition.variables = { title: 'From the app' };
    await changed;
    await panel.updateComplete;
    expect(inField(panel, 'title').value).to.equal('From the app');
    expect(pill(panel)).to.equal('1 custom value');
  });

  it('shows issues next to their input with the codes and messages of validateVariables', async () => {
    const { composition, panel } = await mountPair();
    typeInto(inField(panel, 'title'), 'eleven char');
    typeInto(inField(panel, 'size'), '99');
    typeInto(inField(panel, 'accent', 'input[type="text"]'), 'red');
    await nextEvent(composition, 'variableschange');
    await panel.updateComplete;
    const issuesOf = (id: string) =>
      [...inField(panel, id, '[part~="issues"]').querySelectorAll('li')].map((item) => [
        item.dataset.code,
        item.textContent!.replace(/^\S+: /, ''),
      ]);
    expect(issuesOf('title')).to.deep.equal([['too-long', 'variable "title" should be at most 10 characters, got 11']]);
    expect(issuesOf('size')).to.deep.equal([
      ['out-of-range', 'variable "size" should be within [10, 40], got 99; it is clamped to 40'],
    ]);
    expect(issuesOf('accent')).to.deep.equal([
      ['type-mismatch', 'variable "accent" is declared as color and expects a "#rrggbb" color, got "red"'],
    ]);
    const accent = inField(panel, 'accent', 'input[type="text"]');
    expect(accent.getAttribute('aria-invalid')).to.equal('true');
    expect(accent.getAttribute('aria-describedby')).to.equal(inField(panel, 'accent', '[part~="issues"]').id);
    expect(inField(panel, 'title').getAttribute('aria-invalid'), 'a warning is not invalid').to.equal('false');
  });

  it('shows what the frame refused about a value next to its input (a refused image URL)', async () => {
    const { composition, panel } = await mountPair();
    typeInto(inField(panel, 'logo'), 'javascript:alert(1)');
    await nextEvent(composition, 'variableschange');
    await panel.updateComplete;
    expect(
      [...inField(panel, 'logo', '[part~="issues"]').querySelectorAll('li')].map((item) => item.dataset.code),
    ).to.deep.equal(['binding_url_refused']);
  });
});

describe('<fx-variables-panel> copy', () => {
  let written: string[];
  let original: PropertyDescriptor | undefined;
  beforeEach(() => {
    written = [];
    original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
  });
  afterEach(() => {
    if (original) Object.defineProperty(navigator, 'clipboard', original);
    else delete (navigator as { clipboard?: unknown }).clipboard;
  });

  const EFFECTIVE = {
    title: 'It\'s "ok"\n</script>ü',
    size: 40,
    accent: '#ff0000',
    shown: true,
    mood: 'calm',
    face: 'monospace',
    logo: '',
    extra: '',
  };

  /** A text input cannot hold a newline: the app sets such values on the composition. */
  async function withHostileValues() {
    const pair = await mountPair();
    const changed = nextEvent(pair.composition, 'variableschange');
    pair.composition.variables = { title: EFFECTIVE.title, size: 99 };
    await changed;
    await pair.panel.updateComplete;
    return pair;
  }

  it('copies the values in effect as JSON and announces it', async () => {
    const { panel } = await withHostileValues();
    partOf<HTMLButtonElement>(panel, 'copy-json').click();
    await waitFor(() => written.length === 1, 'the copy');
    expect(written[0]).to.equal(JSON.stringify(EFFECTIVE));
    expect(written[0]).to.equal(panel.valuesJson());
    await panel.updateComplete;
    expect(partOf(panel, 'status').textContent).to.equal('Values copied as JSON');
    expect(partOf(panel, 'status').getAttribute('role')).to.equal('status');
  });

  it('copies a ready-to-run render command, quoted for the shell', async () => {
    const { panel } = await withHostileValues();
    panel.setAttribute('project-dir', "my project's dir");
    await panel.updateComplete;
    partOf<HTMLButtonElement>(panel, 'copy-command').click();
    await waitFor(() => written.length === 1, 'the copy');
    const json = JSON.stringify(EFFECTIVE).replace(/'/g, `'\\''`);
    expect(written[0]).to.equal(`fx cloud render 'my project'\\''s dir' --variables '${json}'`);
    expect(written[0]).to.equal(panel.renderCommand());
  });

  it('says so when the clipboard refuses', async () => {
    const { panel } = await mountPair();
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    });
    expect(await panel.copyJson()).to.equal(false);
    await panel.updateComplete;
    expect(partOf(panel, 'status').textContent).to.equal('Copy failed: the clipboard is not available here');
  });
});
