// The composition's clocks hold still while it loads (load-clock.ts): a script timing its own load takes the same
// branch however long the machine took, as GSAP's ticker does when it decides whether a frame passed.
import { expect } from '@open-wc/testing';
import { compileComposition } from '../../src/runtime/compile.js';
import { openCompiled } from './compiled-frame.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const ENTRY = new URL('/virtual/index.html', location.href).href;

/** Work the clocks cannot see: tens of milliseconds of arithmetic. */
const REAL_WORK = 'let x = 0; for (let i = 0; i < 3e7; i++) x = (x + i * 7) % 1000003; window.__work = x;';

/** A composition recording what its scripts read from both clocks while it loads. */
const COMPOSITION = `<!doctype html><html><head><script>
  window.__reads = [[performance.now(), Date.now()]];
</script></head><body>
  <div data-composition-id="main" data-width="320" data-height="180" data-duration="1"></div>
  <script>${REAL_WORK} window.__reads.push([performance.now(), Date.now()]);</script>
  <script>
    // Waits for 5 ms to pass: a held clock still gets there.
    const waitedFrom = performance.now();
    window.__waitReads = 0;
    while (performance.now() - waitedFrom < 5) window.__waitReads++;
    window.__reads.push([performance.now(), Date.now()]);
    addEventListener('load', () => window.__reads.push([performance.now(), Date.now()]));
  </script>
</body></html>`;

type Clocks = Window & typeof globalThis & { __reads: [number, number][]; __waitReads: number };

async function load(): Promise<Clocks> {
  const fetch = (async () =>
    new Response(COMPOSITION, { headers: { 'content-type': 'text/html' } })) as typeof globalThis.fetch;
  return (await openCompiled(await compileComposition(ENTRY, { runtimeUrl: RUNTIME_URL, fetch }))) as Clocks;
}

describe('the composition clocks while it loads', () => {
  it('do not move with work done while loading, up to the load event', async () => {
    const view = await load();
    const [first, afterWork, , atLoad] = view.__reads;
    expect(afterWork![0] - first![0]).to.be.below(1);
    expect(afterWork![1] - first![1]).to.be.at.most(1);
    expect(atLoad![0] - first![0]).to.be.below(6);
  });

  it('still move for a script that waits for time to pass, a microsecond per read', async () => {
    const view = await load();
    const [, afterWork, afterWait] = view.__reads;
    expect(afterWait![0] - afterWork![0]).to.be.within(5, 5.1);
    expect(view.__waitReads).to.be.within(4900, 5100);
    expect(Number.isInteger(afterWait![1])).to.equal(true);
  });

  it('run as the browser clocks once ready, never going back', async () => {
    const view = await load();
    const last = view.__reads.at(-1)!;
    const [now, date] = [view.performance.now(), view.Date.now()];
    expect(now).to.be.at.least(last[0]);
    expect(date).to.be.at.least(last[1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.performance.now() - now).to.be.within(40, 1000);
    expect(view.Date.now() - date).to.be.within(40, 1000);
  });
});
