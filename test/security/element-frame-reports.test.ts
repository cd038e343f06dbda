import { expect } from '@open-wc/testing';
import type { FxVariablesChangeDetail } from '../../src/elements/internal/events.js';
import { SCRIPT_READS } from '../../src/runtime/protocol/messages.js';
import { mount, nextEvent, recordEvents, sleep, waitFor, whenReady } from '../elements/helpers.js';
import { hostileComposition } from './hostile.js';
import { cloneStall, longestTask } from './stalls.js';

/**
 * The frame runs the composition's scripts, so everything on its port may be forged (the fixture patches
 * `MessagePort.prototype.postMessage`). The host takes size, duration and frame rate from its own compile.
 */
describe('security: <fx-composition> reports from the frame', () => {
  const declarations = [{ id: 'title', type: 'string', label: 'Title', default: 'Hello' }];
  /** The fixture's sparse array (test/fixtures/security/hostile.js): cheap to clone in V8 and SpiderMonkey. */
  const sparse = () => Object.assign(['x'], { length: 2 ** 28 });
  // Walking the array takes seconds; a page load on a busy machine takes well under one, on top of what the engine
  // spends cloning it (nothing to speak of where the frame has a thread of its own). That clone varies from one
  // message to the next (WebKitGTK in a clean-clone run: 2.5 s measured, then a 3.6 s stall while the frame sent
  // the same array), so half of it again is allowed.
  const allowedStall = async () => 1000 + 1.5 * (await cloneStall(sparse()));

  it('forged duration, size, declarations, times and seek results are not believed', async () => {
    const el = mount(
      {},
      {
        srcdoc: hostileComposition(['forge'], { width: 320, height: 180, duration: 2, variables: declarations }),
        style: 'display:block;width:640px',
      },
    );
    const changed = nextEvent<CustomEvent<FxVariablesChangeDetail>>(el, 'variableschange');
    await whenReady(el);
    expect(el.duration).to.equal(2);
    const box = el.getBoundingClientRect();
    expect(box.width).to.equal(640);
    expect(box.height).to.be.closeTo(360, 1);
    expect(el.declarations).to.deep.equal(declarations);
    expect(el.metadata?.variables).to.deep.equal(declarations);
    expect(Object.keys((await changed).detail.values)).to.deep.equal(['title']);
    expect(await el.seek(1)).to.equal(1);
    expect(el.currentTime).to.equal(1);
    await el.play();
    await nextEvent(el, 'timeupdate');
    expect(el.currentTime).to.be.within(0, 2);
  });

  it('a 2^28-long sparse array in a ready message does not stall the host', async () => {
    const allowed = await allowedStall();
    const longest = await longestTask(
      async () => void (await whenReady(mount({}, { srcdoc: hostileComposition(['sparse-ready']) }))),
    );
    expect(longest).to.be.below(allowed);
  });

  it('a 2^28-long sparse array in an unsolicited variables message does not stall the host', async () => {
    const allowed = await allowedStall();
    const longest = await longestTask(async () => {
      await whenReady(mount({}, { srcdoc: hostileComposition(['sparse-variables']) }));
      await sleep(500);
    });
    expect(longest).to.be.below(allowed);
  });

  it('unsolicited "scripts read values at load" messages do not reload the frame', async () => {
    const el = mount({}, { srcdoc: hostileComposition(['reload-loop']) });
    const seen = recordEvents(el, ['ready']);
    await whenReady(el);
    await sleep(1500);
    expect(seen).to.deep.equal(['ready']);
  });

  it('20 000 time messages give at most one timeupdate per animation frame', async () => {
    const el = mount({}, { srcdoc: hostileComposition(['flood-time']) });
    const seen = recordEvents(el, ['timeupdate']);
    await whenReady(el);
    await sleep(500);
    expect(seen.length).to.be.above(0);
    // 500 ms are about 30 animation frames.
    expect(seen.length).to.be.below(100);
    await waitFor(() => el.currentTime >= 0 && el.currentTime <= 2, 'a time within the composition');
  });

  it('forged reads reports: non-strings and huge lists are ignored, the rest bounded, events at most once a frame', async () => {
    const allowed = await allowedStall();
    const el = mount({}, { srcdoc: hostileComposition(['forge-reads']) });
    const seen = recordEvents(el, ['variablesread']);
    const longest = await longestTask(async () => {
      await whenReady(el);
      await sleep(500);
    });
    expect(longest).to.be.below(allowed);
    const reads = el.variablesRead;
    expect(reads.length).to.equal(SCRIPT_READS.maxIds);
    expect(reads[0]).to.equal('sparse');
    expect(reads.every((id) => typeof id === 'string' && id.length > 0 && id.length <= SCRIPT_READS.maxIdLength)).to.be
      .true;
    expect(reads).not.to.include('x');
    // 2000 messages: one event at ready, then at most one per animation frame (500 ms are about 30).
    expect(seen.length).to.be.within(1, 40);
  });
});
