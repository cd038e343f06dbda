// A root without data-duration (as many HyperFrames registry blocks are written) lasts as long as the timeline its
// scripts register as window.__timelines[<root id>]: the preview becomes ready with that length and seeks land in
// it. A timeline that repeats forever, an empty one, or none at all is a typed `error` event, never a hang.
import { expect } from '@open-wc/testing';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { MetadataIssueCode } from '../../src/runtime/metadata.js';
import { TIMELINE_SETTLE_MS } from '../../src/runtime/timeline-duration.js';
import { mount, nextEvent, probe, recordEvents, watchUncaught, whenReady } from './helpers.js';

const FIXTURE = '/test/fixtures/hyperframes/';
const MINI_GSAP = '<script src="/bench/compositions/shared/mini-gsap.js"></script>';

/** Loads `src`, checking that neither the host page nor the element reported an error on the way. */
async function readyClean(src: string): Promise<FxComposition> {
  const uncaught = watchUncaught();
  const element = mount({ src });
  const seen = recordEvents(element, ['error']);
  await whenReady(element);
  uncaught.stop();
  expect(uncaught.errors).to.deep.equal([]);
  expect(seen).to.deep.equal([]);
  return element;
}

/** The bar's horizontal offset in the frame, from the transform the timeline wrote. */
async function barX(element: FxComposition): Promise<number> {
  const transform = await probe<string>(element, { ask: 'style', selector: '#bar', property: 'transform' });
  return transform === 'none' ? 0 : Number(transform.split(',')[4]);
}

/** A document whose root has no data-duration; `registration` registers (or not) its timeline. */
const withoutDuration = (registration: string) =>
  `<!doctype html><html><head>${MINI_GSAP}</head><body>
    <div id="root" data-composition-id="bad" data-width="320" data-height="180"></div>
    <script>window.__timelines = window.__timelines || {}; ${registration}</script></body></html>`;

async function errorOf(srcdoc: string): Promise<FxErrorDetail> {
  const element = mount({}, { srcdoc });
  const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(element, 'error', TIMELINE_SETTLE_MS + 6000);
  await whenReady(element, TIMELINE_SETTLE_MS + 6000);
  expect(element.duration).to.equal(0);
  return detail;
}

describe('<fx-composition> with a root without data-duration', () => {
  it('a template block registering a GSAP timeline: ready, duration = the timeline length, seeks land', async () => {
    const element = await readyClean(`${FIXTURE}timeline-duration.html`);
    expect(element.duration).to.equal(4.2);
    expect(element.metadata).to.deep.include({ duration: 4.2, durationSource: 'timeline' });
    expect(element.metadata!.issues.map((found) => found.code)).to.deep.equal([MetadataIssueCode.durationFromTimeline]);
    expect(await probe(element, { ask: 'runtime' })).to.deep.include({ duration: 4.2 });
    for (const [time, x] of [
      [1.2, 50],
      [2.2, 100],
      [4.2, 200],
    ] as const) {
      expect(await element.seek(time)).to.equal(time);
      expect(element.currentTime).to.equal(time);
      expect(await barX(element)).to.be.closeTo(x, 0.5);
    }
    // Past the end lands on the end: the timeline's length bounds the composition.
    expect(await element.seek(60)).to.equal(4.2);
  });

  it('a timeline registered after load (an empty placeholder first) is waited for: its length is the duration', async () => {
    const element = await readyClean(`${FIXTURE}timeline-late.html`);
    expect(element.duration).to.equal(3);
    expect(await element.seek(1.5)).to.equal(1.5);
    expect(await barX(element)).to.be.closeTo(45, 0.5);
  });

  it('a timeline that repeats forever is timeline_duration_invalid, at once', async () => {
    const started = performance.now();
    const detail = await errorOf(
      withoutDuration(`window.__timelines.bad = { seek: function () {}, pause: function () {},
        duration: function () { return 2; }, totalDuration: function () { return 1e10; }, repeat: function () { return -1; } };`),
    );
    expect(detail.code).to.equal(MetadataIssueCode.timelineDurationInvalid);
    expect(detail.message).to.contain('repeats forever');
    expect(performance.now() - started).to.be.below(TIMELINE_SETTLE_MS);
  });

  it('an empty timeline is timeline_duration_invalid once the settle time passed', async () => {
    const detail = await errorOf(withoutDuration(`window.__timelines.bad = gsap.timeline({ paused: true });`));
    expect(detail.code).to.equal(MetadataIssueCode.timelineDurationInvalid);
    expect(detail.message).to.contain('empty');
  });

  it('a script that registers no timeline is composition_duration_missing once the settle time passed', async () => {
    const detail = await errorOf(withoutDuration(`window.__timelines.other = gsap.timeline({ paused: true });`));
    expect(detail.code).to.equal(MetadataIssueCode.durationMissing);
    expect(detail.message).to.contain('window.__timelines["bad"]');
  });

  it('an explicit root data-duration wins over the registered timeline', async () => {
    const element = mount(
      {},
      {
        srcdoc: withoutDuration(`var tl = gsap.timeline({ paused: true }); tl.to({}, { duration: 9 }, 0);
          window.__timelines.bad = tl;`).replace('data-width=', 'data-duration="2" data-width='),
      },
    );
    await whenReady(element);
    expect(element.duration).to.equal(2);
    expect(element.metadata?.durationSource).to.equal('attribute');
  });
});
