// Playback: how fast composition time advances against the wall clock, and how far a <video> drifts from the
// composition clock, both read inside the frame once per rendered frame (frame-probes.mjs).
import { startPlaybackSampler, stopPlaybackSampler } from './frame-probes.mjs';
import { inPage, openPlayerPage, playerFrame } from './setup.mjs';

const WINDOW_MS = 500;

/**
 * Composition-time advancement over consecutive `WINDOW_MS` windows of wall time (one ratio per window), so a
 * stall shows up as a low window rather than vanishing in one average.
 */
export function advancementRatios(samples) {
  const ratios = [];
  let start = samples[0];
  for (const sample of samples) {
    if (sample.now - start.now < WINDOW_MS) continue;
    ratios.push((sample.time - start.time) / ((sample.now - start.now) / 1000));
    start = sample;
  }
  return ratios;
}

/** Milliseconds between the video's time and the composition's, in frames where the video was playing. */
export function mediaDrift(samples, clipStart) {
  return samples
    .filter((sample) => sample.media !== null && !sample.mediaPaused)
    .map((sample) => Math.abs(sample.media - (sample.time - clipStart)) * 1000);
}

/**
 * Plays `composition` for `playMs` on each player (muted, so autoplay rules allow the media) and returns
 * `{ fx, peer }`, each `{ ratios, drift, overall, samples }`.
 */
export async function measurePlayback(context, { composition, clipStart, peer, playMs }) {
  const results = {};
  for (const kind of ['fx', 'peer']) {
    const { page, pageModule, close } = await openPlayerPage(context, kind, peer);
    try {
      await inPage(page, pageModule, 'load', kind, await context.url(composition.path));
      const frame = await playerFrame(page);
      await frame.evaluate(startPlaybackSampler);
      await inPage(page, pageModule, 'play');
      await page.waitForTimeout(playMs);
      const all = await frame.evaluate(stopPlaybackSampler);
      await inPage(page, pageModule, 'pause');
      // From the frame the clock moved forward from: what a viewer sees after pressing play. (A paused, never
      // played element shows its poster frame, by default the middle, so the clock may jump back when play starts.)
      const samples = all.slice(
        Math.max(
          0,
          all.findIndex((sample, index) => all[index + 1]?.time > sample.time),
        ),
      );
      if (samples.length < 10)
        throw new Error(`${kind} did not advance on "${composition.name}" (${samples.length} frames sampled)`);
      const first = samples[0];
      const last = samples.at(-1);
      results[kind] = {
        ratios: advancementRatios(samples),
        drift: mediaDrift(samples, clipStart),
        overall: (last.time - first.time) / ((last.now - first.now) / 1000),
        frames: samples.length,
      };
    } finally {
      await close();
    }
  }
  return results;
}
