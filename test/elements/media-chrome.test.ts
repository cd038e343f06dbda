import { expect } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import 'media-chrome';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { compositionHtml, nextEvent, probe, sleep, track, waitFor, watchUncaught, whenReady } from './helpers.js';

const DURATION = 4;

interface Player {
  readonly controller: HTMLElement;
  readonly media: FxComposition;
  readonly playButton: HTMLElement;
  readonly timeRange: HTMLElement;
  readonly muteButton: HTMLElement;
  readonly loadingIndicator: HTMLElement;
  readonly rateButton: HTMLElement;
}

/** `<media-controller>` with `<fx-composition slot="media">` and a play button and time range. */
async function player(): Promise<Player> {
  const controller = document.createElement('media-controller');
  controller.style.cssText = 'display:block;width:480px';
  controller.innerHTML = `
    <fx-composition slot="media" style="display:block;width:480px;height:270px"></fx-composition>
    <media-control-bar>
      <media-play-button></media-play-button>
      <media-mute-button></media-mute-button>
      <media-time-range style="width:400px"></media-time-range>
      <media-playback-rate-button rates="1 2"></media-playback-rate-button>
    </media-control-bar>
    <media-loading-indicator slot="centered-chrome" noautohide></media-loading-indicator>`;
  const media = controller.querySelector('fx-composition')!;
  media.srcdoc = compositionHtml({ duration: DURATION, width: 480, height: 270, body: '<h1>media-chrome</h1>' });
  track(document.body, controller);
  await whenReady(media);
  const find = (selector: string) => controller.querySelector<HTMLElement>(selector)!;
  return {
    controller,
    media,
    playButton: find('media-play-button'),
    timeRange: find('media-time-range'),
    muteButton: find('media-mute-button'),
    loadingIndicator: find('media-loading-indicator'),
    rateButton: find('media-playback-rate-button'),
  };
}

/** Clicks at a point of an element with the real mouse. */
async function clickAt(element: Element, fractionX: number): Promise<void> {
  const box = element.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(box.left + box.width * fractionX), Math.round(box.top + box.height / 2)],
  });
}

describe('media-chrome drives <fx-composition slot="media">', () => {
  afterEach(() => sendMouse({ type: 'move', position: [0, 0] }));

  it('is accessible inside the controller', async () => {
    const { media } = await player();
    await expect(media).to.be.accessible();
  });

  it('learns the duration and paused state', async () => {
    const { controller } = await player();
    await waitFor(
      () => controller.getAttribute('mediaduration') === String(DURATION),
      'the controller to know the duration',
    );
    expect(controller.hasAttribute('mediapaused')).to.equal(true);
  });

  it('its play button plays and pauses the composition', async () => {
    const uncaught = watchUncaught();
    const { media, playButton, controller } = await player();
    const played = nextEvent(media, 'play');
    await clickAt(playButton, 0.5);
    await played;
    expect(media.paused).to.equal(false);
    await waitFor(() => !controller.hasAttribute('mediapaused'), 'the controller to see it playing');
    const paused = nextEvent(media, 'pause');
    await clickAt(playButton, 0.5);
    await paused;
    expect(media.paused).to.equal(true);
    await waitFor(() => controller.hasAttribute('mediapaused'), 'the controller to see it paused');
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
  });

  it('its time range seeks the composition', async () => {
    const { media, timeRange, controller } = await player();
    await waitFor(
      () => controller.getAttribute('mediaduration') === String(DURATION),
      'the controller to know the duration',
    );
    const seeked = nextEvent(media, 'seeked');
    await clickAt(timeRange, 0.5);
    await seeked;
    // Frame-quantized, near the middle of the range (the track has a little padding at its ends).
    expect(media.currentTime).to.be.within(DURATION * 0.4, DURATION * 0.6);
    expect(Math.round(media.currentTime * 30)).to.equal(media.currentTime * 30);
    await waitFor(
      () => Number(controller.getAttribute('mediacurrenttime')) === media.currentTime,
      'the controller to show the new time',
    );
  });

  it('its mute button mutes the composition', async () => {
    const { media, muteButton, controller } = await player();
    await clickAt(muteButton, 0.5);
    await waitFor(() => media.muted, 'the composition to be muted');
    await waitFor(
      () => controller.hasAttribute('mediavolumelevel') && controller.getAttribute('mediavolumelevel') === 'off',
      'the controller to show it muted',
    );
  });

  it('its loading indicator stops loading once the composition plays (playing, readyState)', async () => {
    const { media, loadingIndicator } = await player();
    await media.play();
    await waitFor(() => !loadingIndicator.hasAttribute('medialoading'), 'the loading indicator to stop loading', 2000);
    await sleep(700); // past its loading delay: it must not come back while playing
    expect(loadingIndicator.hasAttribute('medialoading')).to.equal(false);
    // What the user sees: its spinner (the icon slot's default content) stays transparent.
    expect(getComputedStyle(loadingIndicator.shadowRoot!.querySelector('slot[name="icon"] > *')!).opacity).to.equal(
      '0',
    );
  });

  it('its rate button sets playbackRate, and the composition plays at that pace', async () => {
    const { media, rateButton, controller } = await player();
    const changed = nextEvent(media, 'ratechange');
    await clickAt(rateButton, 0.5);
    await changed;
    expect(media.playbackRate).to.equal(2);
    await waitFor(() => controller.getAttribute('mediaplaybackrate') === '2', 'the controller to show the rate');
    const playing = nextEvent(media, 'playing');
    await media.play();
    await playing;
    const runtimeTime = async () => (await probe<{ currentTime: number }>(media, { ask: 'runtime' })).currentTime;
    const [t0, w0] = [await runtimeTime(), performance.now()];
    await sleep(800);
    const [t1, w1] = [await runtimeTime(), performance.now()];
    expect((t1 - t0) / ((w1 - w0) / 1000)).to.be.within(1.6, 2.4);
  });

  it('follows time updates while playing', async () => {
    const { media, controller } = await player();
    await media.play();
    await sleep(400);
    media.pause();
    await sleep(50);
    expect(Number(controller.getAttribute('mediacurrenttime'))).to.be.closeTo(media.currentTime, 0.05);
    expect(media.currentTime).to.be.greaterThan(0.2);
  });
});
