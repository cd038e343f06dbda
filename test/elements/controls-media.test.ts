// The built-in controls beyond play, seek and mute (issue 9, item 4): volume, playback rate, fullscreen, the
// player keys, auto-hide while playing, and a layout that keeps every target at 24 px or more and nothing clipped
// or overlapping down to 320 px wide.
import { expect } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { AUTOHIDE_MS } from '../../src/elements/composition/controls-autohide.js';
import { compositionHtml, frameOf, mount, nextEvent, probeUntil, sleep, waitFor, whenReady } from './helpers.js';

const DURATION = 20;
const WITH_AUDIO = compositionHtml({
  duration: DURATION,
  body: '<audio id="a" src="/test/fixtures/media/frames.webm"></audio><p>controls</p>',
});
const INTERACTIVE = ['play-button', 'scrubber', 'mute-button', 'volume', 'rate-button', 'fullscreen-button'];

const part = <T extends HTMLElement = HTMLElement>(el: FxComposition, name: string) =>
  el.shadowRoot!.querySelector<T>(`[part="${name}"]`)!;
const controlsOf = (el: FxComposition) => part(el, 'controls');

async function controlled(style?: string, srcdoc = WITH_AUDIO): Promise<FxComposition> {
  const el = await whenReady(mount({ controls: true }, { srcdoc, ...(style ? { style } : {}) }));
  await el.updateComplete;
  return el;
}

/** Presses `key` with focus on `target` and waits for the element to settle. */
async function press(el: FxComposition, target: HTMLElement, key: string): Promise<void> {
  target.focus();
  await sendKeys({ press: key });
  await sleep(50);
  await el.updateComplete;
}

describe('<fx-composition controls>: volume, rate, fullscreen', () => {
  afterEach(() => sendMouse({ type: 'move', position: [0, 0] }));

  it('is accessible with every control', async () => {
    const el = await controlled();
    for (const name of INTERACTIVE.filter((name) => name !== 'fullscreen-button' || document.fullscreenEnabled))
      expect(part(el, name), name).to.exist;
    await expect(el).to.be.accessible();
  });

  it('the volume slider sets the volume of the element and the composition’s media', async () => {
    const el = await controlled();
    const slider = part<HTMLInputElement>(el, 'volume');
    expect([slider.getAttribute('aria-label'), slider.getAttribute('aria-valuetext')]).to.deep.equal([
      'Volume',
      '100%',
    ]);
    const changed = nextEvent(el, 'volumechange');
    slider.value = '0.4';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await changed;
    await el.updateComplete;
    // WebKit keeps a media volume as a 32-bit float: 0.4000000059604645.
    expect(el.volume).to.be.closeTo(0.4, 1e-6);
    expect(slider.getAttribute('aria-valuetext')).to.equal('40%');
    expect(
      await probeUntil(
        el,
        { ask: 'property', selector: '#a', name: 'volume' },
        (volume) => Math.abs(Number(volume) - 0.4) < 1e-6,
      ),
    ).to.be.closeTo(0.4, 1e-6);
  });

  it('the rate button steps through 0.5×–2× and says the rate it plays at', async () => {
    const el = await controlled();
    const button = part<HTMLButtonElement>(el, 'rate-button');
    const rates: [number, string | null][] = [];
    for (let i = 0; i < 4; i++) {
      button.click();
      await el.updateComplete;
      rates.push([el.playbackRate, button.getAttribute('aria-label')]);
    }
    expect(rates).to.deep.equal([
      [1.5, 'Playback rate 1.5×'],
      [2, 'Playback rate 2×'],
      [0.5, 'Playback rate 0.5×'],
      [1, 'Playback rate 1×'],
    ]);
    // A rate set from outside shows too; the next press goes to the next larger step.
    el.playbackRate = 1.25;
    await el.updateComplete;
    expect(button.textContent!.trim()).to.equal('1.25×');
    button.click();
    expect(el.playbackRate).to.equal(1.5);
  });

  it('f and the fullscreen button put the element itself in fullscreen, the composition scaled to fill it', async function () {
    if (!document.fullscreenEnabled) this.skip();
    const el = await controlled('display:block;width:320px', compositionHtml({ duration: 2 }));
    const button = part<HTMLButtonElement>(el, 'fullscreen-button');
    expect(button.getAttribute('aria-label')).to.equal('Fullscreen');
    // A key press is the user activation the Fullscreen API asks for.
    const entered = nextEvent(document, 'fullscreenchange');
    await press(el, button, 'f');
    await entered;
    expect(document.fullscreenElement).to.equal(el);
    const { width, height } = el.getBoundingClientRect();
    expect([width, height]).to.deep.equal([innerWidth, innerHeight]);
    const scale = Math.min(innerWidth / 320, innerHeight / 180);
    await waitFor(
      () => Math.abs(frameOf(el).getBoundingClientRect().width - 320 * scale) < 1,
      'the composition to fill the screen',
    );
    await el.updateComplete;
    expect(button.getAttribute('aria-label')).to.equal('Exit fullscreen');
    const left = nextEvent(document, 'fullscreenchange');
    await press(el, button, 'f');
    await left;
    expect(document.fullscreenElement).to.equal(null);
  });

  it('the fullscreen button asks for fullscreen on the element', async function () {
    if (!document.fullscreenEnabled) this.skip();
    const el = await controlled();
    const requests: string[] = [];
    el.requestFullscreen = () => (requests.push('request'), Promise.resolve());
    part<HTMLButtonElement>(el, 'fullscreen-button').click();
    expect(requests).to.deep.equal(['request']);
  });

  it('leaves the fullscreen button out where fullscreen is not available', async () => {
    Object.defineProperty(document, 'fullscreenEnabled', { value: false, configurable: true });
    try {
      const el = await controlled();
      expect(el.shadowRoot!.querySelector('[part="fullscreen-button"]')).to.equal(null);
    } finally {
      delete (document as { fullscreenEnabled?: boolean }).fullscreenEnabled;
    }
  });
});

describe('<fx-composition controls>: keys', () => {
  it('j/l and ←/→ seek 5 s from the play button; Home/End go to the ends', async () => {
    const el = await controlled();
    await el.seek(10);
    const button = part(el, 'play-button');
    const times: number[] = [];
    for (const key of ['l', 'ArrowRight', 'j', 'ArrowLeft', 'ArrowLeft', 'End', 'Home']) {
      const seeked = nextEvent(el, 'seeked');
      await press(el, button, key);
      await seeked;
      times.push(el.currentTime);
    }
    expect(times).to.deep.equal([15, 20, 15, 10, 5, DURATION, 0]);
  });

  it('k toggles playback, m mutes, f asks for fullscreen', async () => {
    const el = await controlled();
    const button = part(el, 'mute-button');
    const played = nextEvent(el, 'play');
    await press(el, button, 'k');
    await played;
    const paused = nextEvent(el, 'pause');
    await press(el, button, 'k');
    await paused;
    await press(el, button, 'm');
    expect(el.muted).to.equal(true);
    await press(el, button, 'm');
    expect(el.muted).to.equal(false);
    let requests = 0;
    el.requestFullscreen = () => ((requests += 1), Promise.resolve());
    await press(el, button, 'f');
    expect(requests).to.equal(document.fullscreenEnabled ? 1 : 0);
  });

  it('Space presses a focused button instead (the mute button mutes, playback stays)', async () => {
    const el = await controlled();
    await press(el, part(el, 'mute-button'), ' ');
    expect([el.muted, el.paused]).to.deep.equal([true, true]);
  });

  it('keys with Control, Alt or Meta are left to the page', async () => {
    const el = await controlled();
    const button = part(el, 'play-button');
    for (const modifier of ['ctrlKey', 'altKey', 'metaKey']) {
      const event = new KeyboardEvent('keydown', {
        key: 'l',
        [modifier]: true,
        bubbles: true,
        composed: true,
        cancelable: true,
      });
      button.dispatchEvent(event);
      expect(event.defaultPrevented, modifier).to.equal(false);
    }
    await sleep(100);
    expect(el.currentTime).to.equal(0);
  });
});

describe('<fx-composition controls>: auto-hide while playing', () => {
  before(() => sendMouse({ type: 'move', position: [0, 0] }));

  it('hides after a while without activity, and a pointer move brings them back', async () => {
    const el = await controlled();
    await el.play();
    await el.updateComplete;
    expect(controlsOf(el).classList.contains('hidden')).to.equal(false);
    await waitFor(() => controlsOf(el).classList.contains('hidden'), 'the controls to hide', AUTOHIDE_MS + 1500);
    const box = el.getBoundingClientRect();
    await sendMouse({ type: 'move', position: [Math.round(box.left + 40), Math.round(box.top + 40)] });
    await waitFor(() => !controlsOf(el).classList.contains('hidden'), 'the controls to show again', 1000);
    await sendMouse({ type: 'move', position: [0, 0] });
  });

  it('shows them on pause', async () => {
    const el = await controlled();
    await el.play();
    await waitFor(() => controlsOf(el).classList.contains('hidden'), 'the controls to hide', AUTOHIDE_MS + 1500);
    el.pause();
    await el.updateComplete;
    expect(controlsOf(el).classList.contains('hidden')).to.equal(false);
  });

  it('never hides them while focus is inside, nor while paused', async () => {
    const el = await controlled();
    await sleep(AUTOHIDE_MS + 300);
    expect(controlsOf(el).classList.contains('hidden'), 'paused').to.equal(false);
    part(el, 'volume').focus();
    await el.play();
    await sleep(AUTOHIDE_MS + 300);
    expect(controlsOf(el).classList.contains('hidden'), 'focused').to.equal(false);
  });
});

describe('<fx-composition controls>: layout', () => {
  /** Every interactive part and the time: inside the element, at least 24 × 24 px when interactive, none overlapping. */
  function checkLayout(el: FxComposition): void {
    const host = el.getBoundingClientRect();
    const names = [...INTERACTIVE, 'time', 'errors'].filter((name) => part(el, name));
    const boxes = names.map((name) => [name, part(el, name).getBoundingClientRect()] as const);
    for (const [name, box] of boxes) {
      expect(
        box.left >= host.left - 0.5 &&
          box.right <= host.right + 0.5 &&
          box.top >= host.top - 0.5 &&
          box.bottom <= host.bottom + 0.5,
        `${name} inside`,
      ).to.equal(true);
      if (INTERACTIVE.includes(name)) expect(Math.min(box.width, box.height), `${name} target size`).to.be.at.least(24);
    }
    for (const [i, [a, boxA]] of boxes.entries()) {
      for (const [b, boxB] of boxes.slice(i + 1)) {
        const overlap =
          Math.min(boxA.right, boxB.right) - Math.max(boxA.left, boxB.left) > 0.5 &&
          Math.min(boxA.bottom, boxB.bottom) - Math.max(boxA.top, boxB.top) > 0.5;
        expect(overlap, `${a} overlaps ${b}`).to.equal(false);
      }
    }
  }

  for (const width of [320, 480, 640]) {
    it(`nothing is clipped or overlapping at ${width} px, every target 24 px or more`, async () => {
      const el = await controlled(`display:block;width:${width}px`);
      await el.seek(DURATION / 2);
      checkLayout(el);
    });
  }

  it('at 320 px with an error hint, too', async () => {
    const failing = compositionHtml({
      duration: 2,
      body: '<script>throw new Error("the chart data is missing for this composition")</script>',
    });
    const el = await controlled('display:block;width:320px', failing);
    await waitFor(() => part(el, 'errors'), 'the error hint');
    checkLayout(el);
  });
});
