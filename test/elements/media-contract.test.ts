// The HTMLMediaElement-like surface of <fx-composition> that media controllers (media-chrome) read (issue 9, item 4):
// load events, readyState/networkState, seeking/waiting/playing, playbackRate (the composition and its media follow
// it) and volume, with the platform's errors for refused values.
import { expect } from '@open-wc/testing';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import {
  compositionHtml,
  mount,
  nextEvent,
  probe,
  probeUntil,
  recordEvents,
  sleep,
  waitFor,
  whenReady,
} from './helpers.js';

const WITH_AUDIO = compositionHtml({
  duration: 10,
  body: '<audio id="a" src="/test/fixtures/media/frames.webm"></audio><p>media</p>',
});
const LOAD_EVENTS = [
  'loadstart',
  'emptied',
  'loadedmetadata',
  'durationchange',
  'loadeddata',
  'canplay',
  'canplaythrough',
  'ready',
];
const PLAY_EVENTS = ['play', 'playing', 'waiting', 'pause', 'seeking', 'seeked'];

const runtimeTime = async (el: FxComposition) =>
  (await probe<{ currentTime: number }>(el, { ask: 'runtime' })).currentTime;

/** Composition seconds per wall second while playing, measured in the frame over `ms`. */
async function pace(el: FxComposition, ms = 800): Promise<number> {
  const [t0, w0] = [await runtimeTime(el), performance.now()];
  await sleep(ms);
  const [t1, w1] = [await runtimeTime(el), performance.now()];
  return (t1 - t0) / ((w1 - w0) / 1000);
}

/** Expects `act()` to throw a DOM error named `name` (`DOMException` or `TypeError`). */
function expectThrows(act: () => void, name: string): void {
  let thrown: unknown;
  try {
    act();
  } catch (error) {
    thrown = error;
  }
  expect((thrown as Error | undefined)?.name, String(thrown)).to.equal(name);
  if (name !== 'TypeError') expect(thrown).to.be.instanceOf(DOMException);
}

describe('<fx-composition> media contract: loading', () => {
  it('fires the load events of a media element, in their order, with readyState and networkState following', async () => {
    const el = mount({});
    expect([el.readyState, el.networkState]).to.deep.equal([0, 0]);
    const seen = recordEvents(el, LOAD_EVENTS);
    el.srcdoc = compositionHtml({ duration: 2 });
    await el.updateComplete;
    expect(el.networkState).to.equal(2);
    await whenReady(el);
    expect(seen).to.deep.equal([
      'loadstart',
      'loadedmetadata',
      'durationchange',
      'loadeddata',
      'canplay',
      'canplaythrough',
      'ready',
    ]);
    expect([el.readyState, el.networkState]).to.deep.equal([4, 1]);
  });

  it('a new source empties the old one first, and a failed load says NETWORK_NO_SOURCE', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml({ duration: 2 }) }));
    const seen = recordEvents(el, ['emptied', 'loadstart']);
    const failed = nextEvent(el, 'error');
    el.removeAttribute('srcdoc');
    el.srcdoc = null;
    el.src = '/test/fixtures/nothing-here.html';
    await failed;
    expect(seen).to.deep.equal(['emptied', 'loadstart']);
    expect([el.readyState, el.networkState]).to.deep.equal([0, 3]);
  });
});

describe('<fx-composition> media contract: seeking, waiting, playing', () => {
  it('play fires play, then playing once the frame’s clock moves', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    const seen = recordEvents(el, PLAY_EVENTS);
    const playing = nextEvent(el, 'playing');
    await el.play();
    await playing;
    expect(seen).to.deep.equal(['play', 'playing']);
    // Only once per play().
    await sleep(200);
    expect(seen).to.deep.equal(['play', 'playing']);
  });

  it('a paused seek: seeking (property, event, readyState 1) until seeked, and no waiting', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    const seen = recordEvents(el, PLAY_EVENTS);
    const landing = el.seek(3);
    expect([el.seeking, el.readyState]).to.deep.equal([true, 1]);
    await landing;
    expect([el.seeking, el.readyState]).to.deep.equal([false, 4]);
    expect(seen).to.deep.equal(['seeking', 'seeked']);
  });

  it('a seek while playing: seeking, waiting, seeked, then playing again', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    const playing = nextEvent(el, 'playing');
    await el.play();
    await playing;
    const seen = recordEvents(el, PLAY_EVENTS);
    const again = nextEvent(el, 'playing');
    await el.seek(5);
    await again;
    expect(seen).to.deep.equal(['seeking', 'waiting', 'seeked', 'playing']);
    expect(el.seeking).to.equal(false);
  });

  it('of overlapping seeks only the last one ends seeking', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    const first = el.seek(1);
    const last = el.seek(2);
    await first;
    expect(el.seeking).to.equal(true);
    await last;
    expect(el.seeking).to.equal(false);
    expect(el.currentTime).to.equal(2);
  });

  it('seekable and buffered span the duration once ready', async () => {
    const el = mount({}, { srcdoc: compositionHtml({ duration: 3 }) });
    expect(el.seekable.length).to.equal(0);
    await whenReady(el);
    expect([el.seekable.length, el.seekable.start(0), el.seekable.end(0)]).to.deep.equal([1, 0, 3]);
    expect(el.buffered.end(0)).to.equal(3);
  });
});

describe('<fx-composition> media contract: playbackRate', () => {
  it('the composition plays at the rate set, and a change while playing takes effect at once', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    const changed = nextEvent(el, 'ratechange');
    el.playbackRate = 2;
    await changed;
    expect(el.playbackRate).to.equal(2);
    const playing = nextEvent(el, 'playing');
    await el.play();
    await playing;
    expect(await pace(el)).to.be.within(1.6, 2.4);
    el.playbackRate = 0.5;
    await sleep(100);
    expect(await pace(el)).to.be.within(0.35, 0.65);
  });

  it('the composition’s media play at the rate, set before load or after', async () => {
    const el = mount({}, { srcdoc: WITH_AUDIO });
    el.playbackRate = 1.5;
    await whenReady(el);
    expect(
      await probeUntil(el, { ask: 'property', selector: '#a', name: 'playbackRate' }, (rate) => rate === 1.5),
    ).to.equal(1.5);
    el.playbackRate = 2;
    expect(
      await probeUntil(el, { ask: 'property', selector: '#a', name: 'playbackRate' }, (rate) => rate === 2),
    ).to.equal(2);
    // Playing, drift steering scales it by at most ±20 %.
    await el.play();
    await sleep(600);
    expect(await probe(el, { ask: 'property', selector: '#a', name: 'playbackRate' })).to.be.within(1.6, 2.4);
  });

  it('refuses what HTMLMediaElement refuses (and 0), keeping the rate, without ratechange', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    let changes = 0;
    el.addEventListener('ratechange', () => (changes += 1));
    for (const rate of [Number.NaN, Infinity, -Infinity, 'fast'])
      expectThrows(() => (el.playbackRate = rate as number), 'TypeError');
    for (const rate of [0, -1, 0.0624, 16.01, 100]) expectThrows(() => (el.playbackRate = rate), 'NotSupportedError');
    for (const rate of [0, 17]) expectThrows(() => (el.defaultPlaybackRate = rate), 'NotSupportedError');
    expect([el.playbackRate, el.defaultPlaybackRate, changes]).to.deep.equal([1, 1, 0]);
    // The bounds themselves are fine.
    el.playbackRate = 0.0625;
    el.playbackRate = 16;
    expect(changes).to.equal(2);
  });

  it('a new source starts at defaultPlaybackRate', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    el.defaultPlaybackRate = 1.5;
    el.playbackRate = 2;
    expect(el.playbackRate).to.equal(2);
    const changed = nextEvent(el, 'ratechange');
    el.srcdoc = compositionHtml({ duration: 2 });
    await changed;
    expect(el.playbackRate).to.equal(1.5);
    await nextEvent(el, 'ready');
    expect((await probeUntil<{ currentTime: number }>(el, { ask: 'runtime' }, () => true)).currentTime).to.equal(0);
  });
});

describe('<fx-composition> media contract: volume', () => {
  it('sets the composition’s media volume and fires volumechange', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    const changed = nextEvent(el, 'volumechange');
    el.volume = 0.25;
    await changed;
    expect(el.volume).to.equal(0.25);
    expect(
      await probeUntil(el, { ask: 'property', selector: '#a', name: 'volume' }, (volume) => volume === 0.25),
    ).to.equal(0.25);
  });

  it('a volume set before load reaches the frame', async () => {
    const el = mount({}, { srcdoc: WITH_AUDIO });
    el.volume = 0.5;
    await whenReady(el);
    expect(
      await probeUntil(el, { ask: 'property', selector: '#a', name: 'volume' }, (volume) => volume === 0.5),
    ).to.equal(0.5);
  });

  it('out of range is an IndexSizeError, not finite a TypeError; the volume stays', async () => {
    const el = await whenReady(mount({}, { srcdoc: WITH_AUDIO }));
    let changes = 0;
    el.addEventListener('volumechange', () => (changes += 1));
    for (const volume of [-0.01, 1.01, 2]) expectThrows(() => (el.volume = volume), 'IndexSizeError');
    for (const volume of [Number.NaN, Infinity, 'loud'])
      expectThrows(() => (el.volume = volume as number), 'TypeError');
    expect([el.volume, changes]).to.deep.equal([1, 0]);
    await waitFor(
      async () => (await probe(el, { ask: 'property', selector: '#a', name: 'volume' })) === 1,
      'the media volume to stay 1',
    );
  });
});
