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
 * Makes the frame after the next one late, as a compositor still rastering holds it back: registered from inside
 * the next frame, the block runs before anything the settler asks of the frame after.
 */
function lateFrameAfterNext(ms = 80): void {
  requestAnimationFrame(() => requestAnimationFrame(() => busy(ms)));
}

/** A settler that has seen raster keep up. */
async function keepingUp(): Promise<PaintSettler> {
  const settler = new PaintSettler();
  await settler.afterSettledPaint();
  return settler;
}

describe('PaintSettler', () => {
  it('settles a first paint: it waits for a frame after it', async () => {
    expect(await framesUntil(() => new PaintSettler().afterSettledPaint())).to.be.at.least(2);
  });

  it('answers right after the paint once raster kept up', async () => {
    const settler = await keepingUp();
    expect(await framesUntil(() => settler.afterSettledPaint())).to.equal(1);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.equal(1);
  });

  it('waits past late frames for one on time, and settles the next paint too', async () => {
    const settler = new PaintSettler();
    lateFrameAfterNext();
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(3);
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(2);
  });

  it('settles again after an early answer that a late frame followed', async () => {
    const settler = await keepingUp();
    lateFrameAfterNext();
    expect(await framesUntil(() => settler.afterSettledPaint())).to.equal(1);
    // The frame after that answer came late: the next paint is settled.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(2);
  });

  it('settles a slow paint while raster keeps up', async () => {
    const settler = await keepingUp();
    const settled = framesUntil(() => settler.afterSettledPaint());
    // Runs after the settler's own callback in that frame: its paint takes this long.
    requestAnimationFrame(() => busy(20));
    expect(await settled).to.be.at.least(2);
  });

  it('settles the first paint of a stage built anew', async () => {
    const settler = await keepingUp();
    settler.expectLag();
    expect(await framesUntil(() => settler.afterSettledPaint())).to.be.at.least(2);
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
