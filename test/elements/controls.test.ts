import { expect } from '@open-wc/testing';
import { a11ySnapshot, findAccessibilityNode, sendKeys } from '@web/test-runner-commands';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { compositionHtml, mount, nextEvent, probe, sleep, track, whenReady } from './helpers.js';
import { isWebKit, itWithChromium, WebKitLacks } from '../browsers.js';

const FPS = 30;
/** The space bar by its key value: WebDriver BiDi (Firefox) knows no key named `Space`. */
const SPACE = ' ';
const WITH_AUDIO = compositionHtml({
  duration: 2,
  body: '<audio id="a" src="/test/fixtures/media/frames.webm"></audio><p>controls</p>',
});

const part = <T extends Element = HTMLElement>(el: FxComposition, name: string) =>
  el.shadowRoot!.querySelector<T & Element>(`[part="${name}"]`)!;
const scrubberOf = (el: FxComposition) => part<HTMLInputElement>(el, 'scrubber');

async function controlled(): Promise<FxComposition> {
  const el = await whenReady(mount({ controls: true }, { srcdoc: WITH_AUDIO }));
  await el.updateComplete;
  return el;
}

describe('<fx-composition controls>', () => {
  it('is accessible', async () => {
    const el = await controlled();
    await expect(el).to.be.accessible();
  });

  it('has no controls without the attribute', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    expect(el.shadowRoot!.querySelector('[part="controls"]')).to.equal(null);
  });

  it('the play button plays and pauses, with a label saying what it will do', async () => {
    const el = await controlled();
    const button = part<HTMLButtonElement>(el, 'play-button');
    expect(button.getAttribute('aria-label')).to.equal('Play');
    const played = nextEvent(el, 'play');
    button.click();
    await played;
    await el.updateComplete;
    expect(el.paused).to.equal(false);
    expect(button.getAttribute('aria-label')).to.equal('Pause');
    const paused = nextEvent(el, 'pause');
    button.click();
    await paused;
    await el.updateComplete;
    expect(button.getAttribute('aria-label')).to.equal('Play');
  });

  it('the mute button mutes the element and the composition’s media', async () => {
    const el = await controlled();
    const button = part<HTMLButtonElement>(el, 'mute-button');
    expect(button.getAttribute('aria-pressed')).to.equal('false');
    button.click();
    await el.updateComplete;
    expect(el.muted).to.equal(true);
    expect(el.hasAttribute('muted')).to.equal(true);
    expect(button.getAttribute('aria-pressed')).to.equal('true');
    await sleep(50);
    expect(await probe(el, { ask: 'property', selector: '#a', name: 'muted' })).to.equal(true);
    button.click();
    await el.updateComplete;
    await sleep(50);
    expect(await probe(el, { ask: 'property', selector: '#a', name: 'muted' })).to.equal(false);
  });

  itWithChromium('a11ySnapshot', 'the scrubber is a slider named "Seek" with its time spoken', async () => {
    const el = await controlled();
    await el.seek(1.5);
    await el.updateComplete;
    const snapshot = await a11ySnapshot({});
    const slider = findAccessibilityNode<{ role: string; name: string; valuemin?: number; valuemax?: number }>(
      snapshot as never,
      (node) => node.role === 'slider',
    );
    expect([slider?.name, slider?.valuemin, slider?.valuemax]).to.deep.equal(['Seek', 0, 2]);
    // The snapshot leaves valuetext out; the attribute is what assistive technology reads.
    expect(scrubberOf(el).getAttribute('aria-valuetext')).to.equal('0:01 of 0:02');
    expect(scrubberOf(el).value).to.equal('1.5');
  });

  it('dragging the scrubber seeks (input events)', async () => {
    const el = await controlled();
    const scrubber = scrubberOf(el);
    const seeked = nextEvent(el, 'seeked');
    scrubber.value = '0.7';
    scrubber.dispatchEvent(new Event('input', { bubbles: true }));
    await seeked;
    expect(el.currentTime).to.equal(0.7);
  });

  it('shows the time', async () => {
    const el = await controlled();
    await el.seek(1.2);
    await el.updateComplete;
    expect(part(el, 'time').textContent).to.equal('0:01 / 0:02');
  });
});

describe('<fx-composition controls> keyboard', () => {
  async function focusedScrubber(): Promise<FxComposition> {
    const el = await controlled();
    scrubberOf(el).focus();
    return el;
  }
  const press = async (el: FxComposition, key: string) => {
    const seeked = nextEvent(el, 'seeked');
    await sendKeys({ press: key });
    await seeked;
    await el.updateComplete;
  };

  it('End seeks to the end, Home to the start', async () => {
    const el = await focusedScrubber();
    await press(el, 'End');
    expect(el.currentTime).to.equal(2);
    expect(scrubberOf(el).getAttribute('aria-valuetext')).to.equal('0:02 of 0:02');
    await press(el, 'Home');
    expect(el.currentTime).to.equal(0);
  });

  it('arrow keys step one frame', async () => {
    const el = await focusedScrubber();
    await press(el, 'ArrowRight');
    expect(el.currentTime).to.equal(1 / FPS);
    await press(el, 'ArrowRight');
    expect(el.currentTime).to.equal(2 / FPS);
    await press(el, 'ArrowLeft');
    expect(el.currentTime).to.equal(1 / FPS);
    expect((await probe<{ currentTime: number }>(el, { ask: 'runtime' })).currentTime).to.equal(1 / FPS);
  });

  it('Space toggles playback while focus is inside', async () => {
    const el = await focusedScrubber();
    const played = nextEvent(el, 'play');
    await sendKeys({ press: SPACE });
    await played;
    expect(el.paused).to.equal(false);
    const paused = nextEvent(el, 'pause');
    await sendKeys({ press: SPACE });
    await paused;
    expect(el.paused).to.equal(true);
  });

  it('Space on the focused play button toggles exactly once', async () => {
    const el = await controlled();
    part<HTMLButtonElement>(el, 'play-button').focus();
    let plays = 0;
    let pauses = 0;
    el.addEventListener('play', () => (plays += 1));
    el.addEventListener('pause', () => (pauses += 1));
    await sendKeys({ press: SPACE });
    await sleep(200);
    expect([plays, pauses]).to.deep.equal([1, 0]);
    expect(el.paused).to.equal(false);
  });

  it('Space does nothing while focus is outside', async () => {
    const el = await controlled();
    const outside = track(document.body, Object.assign(document.createElement('button'), { textContent: 'outside' }));
    outside.focus();
    let plays = 0;
    el.addEventListener('play', () => (plays += 1));
    await sendKeys({ press: SPACE });
    await sleep(200);
    expect(plays).to.equal(0);
    expect(el.paused).to.equal(true);
  });
});

describe('<fx-composition controls>: errors are visible, not a silent 0:00 (issue 9, item 6)', () => {
  it('a composition script error shows in the controls, its message in the hint', async () => {
    const failing = compositionHtml({
      duration: 2,
      body: '<script>throw new Error("the chart data is missing")</script>',
    });
    const el = mount({ controls: true }, { srcdoc: failing });
    await nextEvent(el, 'error');
    await whenReady(el);
    await el.updateComplete;
    expect(part(el, 'errors').textContent, WebKitLacks.scriptErrorMessage).to.include(
      isWebKit ? 'Script error.' : 'the chart data is missing',
    );
    await expect(el).to.be.accessible();
  });

  it('a root without data-duration shows the renderer’s error in the controls', async () => {
    const noDuration = compositionHtml({ duration: 2 }).replace(' data-duration="2"', '');
    const el = mount({ controls: true }, { srcdoc: noDuration });
    const error = await nextEvent<CustomEvent<{ code: string }>>(el, 'error');
    expect(error.detail.code).to.equal('composition_duration_missing');
    await el.updateComplete;
    expect(part(el, 'errors').title).to.include('data-duration');
  });

  it('a clean composition shows no error hint, and a new src clears an old one', async () => {
    const el = mount(
      { controls: true },
      { srcdoc: compositionHtml({ duration: 2, body: '<script>throw new Error("boom")</script>' }) },
    );
    await nextEvent(el, 'error');
    await whenReady(el);
    el.srcdoc = compositionHtml({ duration: 2 });
    await nextEvent(el, 'ready');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="errors"]')).to.equal(null);
  });
});
