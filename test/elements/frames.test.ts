import { expect } from '@open-wc/testing';
import { compositionHtml, mount, pixelsShowing, probe, whenReady, type Rgba } from './helpers.js';

const FPS = 30;
const RED: Rgba = [255, 0, 0, 255];
const BLACK: Rgba = [0, 0, 0, 255];
// The bar grows 300 px in 1 s: exactly 10 px per frame at 30 fps.
const PX_PER_FRAME = 10;
const BAR = compositionHtml({
  duration: 2,
  head: '<style>#bar { position: absolute; left: 0; top: 0; height: 40px; width: 0; background: rgb(255, 0, 0); animation: grow 1s linear both; } @keyframes grow { to { width: 300px; } }</style>',
  body: '<div id="bar"></div>',
});

const same = (actual: Rgba, expected: Rgba) => actual.every((value, index) => value === expected[index]);
/** The element's pixels once they show the bar `width` px wide (or the last screenshot: see pixelsShowing). */
const barOf = (el: Element, width: number) =>
  pixelsShowing(el, (pixel) => (width === 0 || same(pixel(width - 3, 20), RED)) && same(pixel(width + 3, 20), BLACK));

describe('<fx-composition> seeks land on the exact frame (pixels)', () => {
  it('is accessible', async () => {
    const el = await whenReady(mount({}, { srcdoc: BAR }));
    await expect(el).to.be.accessible();
  });

  for (const frame of [1, 3, 7, 15, 29]) {
    it(`frame ${frame}: the bar is ${frame * PX_PER_FRAME} px wide`, async () => {
      const el = await whenReady(mount({}, { srcdoc: BAR }));
      expect(await el.seek(frame / FPS)).to.equal(frame / FPS);
      const edge = frame * PX_PER_FRAME;
      const pixel = await barOf(el, edge);
      expect(pixel(edge - 3, 20)).to.deep.equal(RED);
      expect(pixel(edge + 3, 20)).to.deep.equal(BLACK);
    });
  }

  it('a time between frames lands on the nearest frame', async () => {
    const el = await whenReady(mount({}, { srcdoc: BAR }));
    expect(await el.seek(0.51)).to.equal(15 / FPS);
    const pixel = await barOf(el, 150);
    expect(pixel(147, 20)).to.deep.equal(RED);
    expect(pixel(153, 20)).to.deep.equal(BLACK);
  });

  it('seeking backwards paints the earlier frame', async () => {
    const el = await whenReady(mount({}, { srcdoc: BAR }));
    await el.seek(20 / FPS);
    await el.seek(4 / FPS);
    const pixel = await barOf(el, 40);
    expect(pixel(37, 20)).to.deep.equal(RED);
    expect(pixel(43, 20)).to.deep.equal(BLACK);
  });

  it('frame 0 shows no bar, the end shows all of it', async () => {
    const el = await whenReady(mount({}, { srcdoc: BAR }));
    await el.seek(0);
    expect((await barOf(el, 0))(2, 20)).to.deep.equal(BLACK);
    await el.seek(2);
    const end = await barOf(el, 300);
    expect(end(297, 20)).to.deep.equal(RED);
    expect(end(303, 20)).to.deep.equal(BLACK);
  });
});

describe('<fx-composition> media stays on the frame after a seek', () => {
  // frames.webm: 2 s at 30 fps, 160×90, every frame a flat gray of luma 16 + 3 × its index (limited range). Loaded
  // with CORS so the probe may read its decoded pixels from the (opaque-origin) frame.
  const VIDEO_START = 0.5;
  const RGB_PER_FRAME = (3 * 255) / 219;
  const MEDIA = compositionHtml({
    duration: 3,
    body: `<video id="v" src="/test/fixtures/media/frames.webm" crossorigin="anonymous" data-start="${VIDEO_START}" muted style="position:absolute;left:0;top:0;width:160px;height:90px"></video>`,
  });

  /** The video is paused at `local` (its own clock) and holds that very frame, not a neighbour. */
  async function expectPausedOnFrame(el: Element, local: number): Promise<void> {
    const media = await probe<{ currentTime: number; paused: boolean }>(el, { ask: 'media', selector: '#v' });
    expect(media.paused).to.equal(true);
    expect(Math.abs(media.currentTime - local)).to.be.at.most(1 / FPS);
    // The frame's index read back from its gray level, in the decoded frame: the test cannot read the composited
    // screen of the frame (render-preview.node.test.ts does, from outside the page).
    const [red] = (await probe<number[]>(el, { ask: 'videoPixel', selector: '#v', x: 80, y: 45 }))!;
    expect(Math.round(red! / RGB_PER_FRAME)).to.equal(Math.round(local * FPS));
  }

  for (const time of [0.6, 1.2, 1 + 17 / FPS, 2.4, 2 + 14 / FPS]) {
    it(`at ${time.toFixed(3)} s the video shows frame ${Math.round((time - VIDEO_START) * FPS)}`, async () => {
      const el = await whenReady(mount({}, { srcdoc: MEDIA }));
      const landed = await el.seek(time);
      await expectPausedOnFrame(el, landed - VIDEO_START);
    });
  }

  // Chromium now and then composites a paused video one frame behind what it reports presented (media.ts
  // `presentAgain`): a seek on its own presents its frame a second time before it answers; a scrub's seeks do not wait.
  it('a seek on its own presents the video frame twice, the same frame, before it answers', async () => {
    const el = await whenReady(mount({}, { srcdoc: MEDIA }));
    await el.seek(1.2);
    await new Promise((resolve) => setTimeout(resolve, 300)); // what follows is a seek on its own, not a scrub
    await probe(el, { ask: 'watchPresented', selector: '#v' });
    await el.seek(2 + 14 / FPS);
    const local = 2 + 14 / FPS - VIDEO_START;
    const presented = await probe<number[]>(el, { ask: 'presentedFrames', selector: '#v' });
    expect(presented).to.have.length(2);
    expect(Math.round(presented[0]! * FPS)).to.equal(Math.round(local * FPS));
    expect(Math.round(presented[1]! * FPS)).to.equal(Math.round(local * FPS));
    await expectPausedOnFrame(el, local);
  });

  it("a scrub's seeks present each frame once", async () => {
    const el = await whenReady(mount({}, { srcdoc: MEDIA }));
    await el.seek(0.6);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await probe(el, { ask: 'watchPresented', selector: '#v' });
    // The first seek is on its own; each later one is sent as the one before it is answered (a scrub).
    const times = [0.9, 1.5, 2.1];
    for (const time of times) await el.seek(time);
    const presented = await probe<number[]>(el, { ask: 'presentedFrames', selector: '#v' });
    const frameOf = (time: number) => Math.round((time - VIDEO_START) * FPS);
    expect(presented.map((mediaTime) => Math.round(mediaTime * FPS))).to.deep.equal([
      frameOf(0.9),
      ...times.map(frameOf),
    ]);
  });

  it('a burst of seeks ends on the last one, in the element and in the frame', async () => {
    const el = await whenReady(mount({}, { srcdoc: MEDIA }));
    const requests = [2.4, 0.7, 1.9, 0.6, 1.2];
    const landed = await Promise.all(requests.map((time) => el.seek(time)));
    expect(landed).to.deep.equal(requests);
    expect(el.currentTime).to.equal(1.2);
    expect((await probe<{ currentTime: number }>(el, { ask: 'runtime' })).currentTime).to.equal(1.2);
    const media = await probe<{ currentTime: number }>(el, { ask: 'media', selector: '#v' });
    expect(Math.abs(media.currentTime - (1.2 - VIDEO_START))).to.be.at.most(1 / FPS);
  });

  it('is hidden and rewound before its start', async () => {
    const el = await whenReady(mount({}, { srcdoc: MEDIA }));
    await el.seek(1.5);
    await el.seek(0.2);
    expect(await probe(el, { ask: 'attribute', selector: '#v', name: 'data-fx-hidden' })).to.equal('');
    expect((await probe<{ currentTime: number }>(el, { ask: 'media', selector: '#v' })).currentTime).to.equal(0);
  });

  it('is paused with the composition after playing, within a frame of its clock', async () => {
    const el = await whenReady(mount({}, { srcdoc: MEDIA }));
    await el.seek(0.6);
    await el.play();
    await new Promise((resolve) => setTimeout(resolve, 500));
    el.pause();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const inside = await probe<{ currentTime: number }>(el, { ask: 'runtime' });
    const media = await probe<{ currentTime: number; paused: boolean }>(el, { ask: 'media', selector: '#v' });
    expect(media.paused).to.equal(true);
    expect(Math.abs(media.currentTime - (inside.currentTime - VIDEO_START))).to.be.at.most(1 / FPS);
  });
});
