// Issue 9, item 5: what a paused preview shows (`poster-time`), `currentTime` set before ready, and a burst of seeks.
import { expect } from '@open-wc/testing';
import { compositionHtml, mount, probe, probeUntil, sleep, whenReady } from './helpers.js';

const FOUR_SECONDS = compositionHtml({ duration: 4 });

describe('<fx-composition> poster-time', () => {
  it('by default a paused, never-played element shows the middle frame, with the playhead at 0', async () => {
    const el = mount({}, { srcdoc: FOUR_SECONDS });
    expect(el.posterTime).to.equal('50%');
    await whenReady(el);
    expect([el.currentTime, el.paused]).to.deep.equal([0, true]);
    expect(
      (await probeUntil(el, { ask: 'runtime' }, (runtime: { currentTime: number }) => runtime.currentTime === 2))
        .currentTime,
    ).to.equal(2);
  });

  for (const [value, shown] of [
    ['1.5', 1.5],
    ['25%', 1],
    ['99', 4],
    ['nonsense', 2],
  ] as const) {
    it(`poster-time="${value}" shows t = ${shown}`, async () => {
      const el = await whenReady(mount({ 'poster-time': value }, { srcdoc: FOUR_SECONDS }));
      expect(el.currentTime).to.equal(0);
      expect(
        (await probeUntil(el, { ask: 'runtime' }, (runtime: { currentTime: number }) => runtime.currentTime === shown))
          .currentTime,
      ).to.equal(shown);
    });
  }

  it('play() starts from the beginning, not from the poster frame', async () => {
    const el = await whenReady(mount({ 'poster-time': '50%' }, { srcdoc: FOUR_SECONDS }));
    expect(
      (await probeUntil(el, { ask: 'runtime' }, (runtime: { currentTime: number }) => runtime.currentTime === 2))
        .currentTime,
    ).to.equal(2);
    await el.play();
    await sleep(200);
    const runtime = await probe<{ currentTime: number; paused: boolean }>(el, { ask: 'runtime' });
    expect(runtime.paused).to.equal(false);
    expect(runtime.currentTime).to.be.below(1);
    expect(el.currentTime).to.be.below(1);
  });

  it('is not used with autoplay', async () => {
    const el = await whenReady(mount({ autoplay: true, 'poster-time': '50%' }, { srcdoc: FOUR_SECONDS }));
    await sleep(100);
    expect(el.paused).to.equal(false);
    expect((await probe<{ currentTime: number }>(el, { ask: 'runtime' })).currentTime).to.be.below(1.5);
  });
});

describe('<fx-composition> currentTime before ready', () => {
  it('is where the element starts, and reads back before ready', async () => {
    const el = mount({ 'poster-time': '50%' }, { srcdoc: FOUR_SECONDS });
    el.currentTime = 3;
    expect(el.currentTime).to.equal(3);
    await whenReady(el);
    expect(el.currentTime).to.equal(3);
    expect(
      (await probeUntil(el, { ask: 'runtime' }, (runtime: { currentTime: number }) => runtime.currentTime === 3))
        .currentTime,
    ).to.equal(3);
  });
});

describe('<fx-composition> a burst of seeks', () => {
  // The composition holds back its answer to the first seek until the next one is answered: answers out of order.
  const outOfOrder = compositionHtml({
    duration: 4,
    head: `<script>
      const post = MessagePort.prototype.postMessage;
      let hold = true, held;
      MessagePort.prototype.postMessage = function (message, ...rest) {
        if (message && message.type === 'seeked' && hold) { hold = false; held = () => post.call(this, message, ...rest); return; }
        post.call(this, message, ...rest);
        if (message && message.type === 'seeked' && held) setTimeout(held, 30);
      };
    </script>`,
  });

  it('only the most recent seek moves the playhead, whatever order the answers come in', async () => {
    const el = await whenReady(mount({ 'poster-time': '0' }, { srcdoc: outOfOrder }));
    const first = el.seek(1);
    await sleep(0); // both seeks reach the frame
    const last = el.seek(2);
    expect(await last).to.equal(2);
    await first;
    await sleep(100);
    expect(el.currentTime).to.equal(2);
  });
});
