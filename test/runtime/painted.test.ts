import { expect } from '@open-wc/testing';
import { PaintSettler } from '../../src/runtime/frame/painted.js';

/** Keeps the main thread busy for `ms`. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** How many animation frames `settled` took, counted from before it started. */
async function framesUntil(settled: () => Promise<void>): Promise<number> {
  let frames = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    frames++;
    requestAnimationFrame(count);
  };
  requestAnimationFrame(count);
  await settled();
  counting = false;
  return frames;
}

/**
 * Makes the `nth` frame from now late (1 = the next), as a compositor still rastering holds it back: registered from
 * inside the frame before, the block runs before anything the settler asks of that frame.
 */
function lateFrame(nth: number, ms = 80): void {
  const inFrame = (left: number) => requestAnimationFrame(() => (left === 1 ? busy(ms) : inFrame(left - 1)));
  inFrame(nth);
}

/** A settler that has seen raster keep up. */
async function keepingUp(): Promise<PaintSettler> {
  const settler = new PaintSettler();
  await settler.afterSettledPaint();
  return settler;
}

describe('PaintSettler', () => {
  it('settles a first paint: it waits for two frames on time after it', async () => {
    expect(await framesUntil(() => new PaintSettler().afterSettledPaint())).to.be.at.least(3);
  });

  it('answers right after the paint within a scrub once raster kept up', async () => {
    const settler = await keepingUp();
    expect(await framesUntil(() => settler.afterSettledPaint())).to.equal(1);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.equal(1);
  });

  it('waits past a late frame for two on time, and settles the next paint too', async () => {
    const settler = new PaintSettler();
    lateFrame(2);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(4);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(3);
  });

  it('does not take one frame on time for settled: the one after it may still come late', async () => {
    const settler = new PaintSettler();
    lateFrame(3);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(5);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(3);
  });

  it('settles a seek that comes after a pause, even once raster kept up', async () => {
    const settler = await keepingUp();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(3);
  });

  it('settles a seek that arrived before the last answer went out, however soon it paints', async () => {
    const settler = new PaintSettler();
    const scrubbing = settler.partOfScrub();
    await settler.afterSettledPaint();
    expect(await framesUntil(() => settler.afterSettledPaint(scrubbing))).to.be.at.least(3);
  });

  it('answers a slow paint after one frame on time while raster keeps up', async () => {
    const settler = await keepingUp();
    const settled = framesUntil(() => settler.afterSettledPaint());
    // Runs after the settler's own callback in that frame: its paint takes this long.
    requestAnimationFrame(() => busy(20));
    expect(await settled).to.equal(2);
  });

  it('waits past a late frame after a slow paint, and settles the next paint', async () => {
    const settler = await keepingUp();
    const settled = framesUntil(() => settler.afterSettledPaint());
    requestAnimationFrame(() => busy(20));
    lateFrame(2);
    expect(await settled).to.be.at.least(3);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(3);
  });

  it('settles the first paint of a stage built anew', async () => {
    const settler = await keepingUp();
    settler.expectLag();
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(3);
  });

  it('answers within about a second when every frame is late', async () => {
    let late = true;
    const lateEveryFrame = () => {
      if (!late) return;
      busy(50);
      requestAnimationFrame(lateEveryFrame);
    };
    requestAnimationFrame(lateEveryFrame);
    const started = performance.now();
    await new PaintSettler().afterSettledPaint();
    late = false;
    // 1 s of late frames, plus the last one's 50 ms and a busy machine's slack; a hang would hit the test timeout.
    expect(performance.now() - started).to.be.within(900, 3000);
  });
});
