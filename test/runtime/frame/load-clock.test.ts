// The composition's Date.now() holds still while it loads (load-clock.ts): a script timing its own load takes the
// same branch however long the machine took, as GSAP's ticker does when it decides whether a frame passed.
import { expect } from '@open-wc/testing';
import { compileComposition } from '../../../src/runtime/compile/compile.js';
import { openCompiled } from '../compiled-frame.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const ENTRY = new URL('/virtual/index.html', location.href).href;

/** Work a held clock does not see: tens of milliseconds of arithmetic. */
const REAL_WORK = 'let x = 0; for (let i = 0; i < 3e7; i++) x = (x + i * 7) % 1000003; window.__work = x;';

/** A composition recording what its scripts read from `Date.now()` (and `performance.now()`) while it loads. */
const COMPOSITION = `<!doctype html><html><head><script>
  window.__reads = [Date.now()];
  window.__realStart = performance.now();
</script></head><body>
  <div data-composition-id="main" data-width="320" data-height="180" data-duration="1"></div>
  <script>${REAL_WORK} window.__reads.push(Date.now()); window.__realWork = performance.now() - window.__realStart;</script>
  <script>
    // Waits for 5 ms to pass: a held clock still gets there.
    const waitedFrom = Date.now();
    window.__waitReads = 0;
    while (Date.now() - waitedFrom < 5) window.__waitReads++;
    window.__reads.push(Date.now());
    addEventListener('load', () => window.__reads.push(Date.now()));
  </script>
</body></html>`;

type Clock = Window &
  typeof globalThis & { __reads: number[]; __waitReads: number; __realWork: number; __realStart: number };

async function load(): Promise<Clock> {
  const fetch = (async () =>
    new Response(COMPOSITION, { headers: { 'content-type': 'text/html' } })) as typeof globalThis.fetch;
  return (await openCompiled(await compileComposition(ENTRY, { runtimeUrl: RUNTIME_URL, fetch }))) as Clock;
}

describe('Date.now() while the composition loads', () => {
  it('does not move with work done while loading, up to the load event', async () => {
    const view = await load();
    const [first, afterWork, afterWait, atLoad] = view.__reads;
    expect(view.__realWork, 'the work took real time').to.be.above(5);
    expect(afterWork! - first!).to.equal(0);
    expect(atLoad! - afterWait!).to.equal(0);
  });

  it('still moves for a script that waits for time to pass, a microsecond per read', async () => {
    const view = await load();
    const [, afterWork, afterWait] = view.__reads;
    expect(afterWait! - afterWork!).to.be.within(5, 6);
    expect(view.__waitReads).to.be.within(4000, 5100);
  });

  it('runs as the browser clock once ready, never going back; performance.now() is never held', async () => {
    const view = await load();
    const last = view.__reads.at(-1)!;
    const date = view.Date.now();
    expect(date).to.be.at.least(last);
    expect(view.performance.now() - view.__realStart).to.be.above(view.__realWork);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.Date.now() - date).to.be.within(40, 1000);
  });
});
