import { AudioSample, type AudioSampleSource } from 'mediabunny';

/** How far ahead of the video the sound is fed, in seconds: the muxer interleaves, so it waits on the later track. */
const LEAD_SECONDS = 1;

/**
 * Feeds an `AudioBuffer` (already mixed) to the audio track a slice at a time, as the video advances: the muxer
 * interleaves the tracks, so sound fed all at once would wait in its queue until the video caught up. Each slice
 * is stamped with its own start (sample index / rate), so the sound stays where it was mixed. What lies past the
 * video's end is left out: the file is as long as its frames.
 */
export class AudioFeed {
  /** Sample frames of the buffer fed so far. */
  private fed = 0;

  constructor(
    private readonly source: AudioSampleSource,
    private readonly buffer: AudioBuffer,
  ) {}

  /** Feeds the sound up to `videoEnd` seconds and a lead beyond it (`final`: exactly to `videoEnd`). */
  async feedTo(videoEnd: number, final = false): Promise<void> {
    const { sampleRate, length } = this.buffer;
    const end = Math.min(length, Math.round((final ? videoEnd : videoEnd + LEAD_SECONDS) * sampleRate));
    // Slices of a second or more: few samples through the encoder, none too large to copy.
    if (!final && end - this.fed < sampleRate && end < length) return;
    while (this.fed < end) {
      const start = this.fed;
      const stop = Math.min(end, start + sampleRate);
      const sample = this.slice(start, stop);
      try {
        await this.source.add(sample);
      } finally {
        sample.close();
      }
      this.fed = stop;
    }
  }

  private slice(start: number, stop: number): AudioSample {
    const { numberOfChannels, sampleRate } = this.buffer;
    const frames = stop - start;
    const data = new Float32Array(frames * numberOfChannels);
    for (let channel = 0; channel < numberOfChannels; channel++)
      data.set(this.buffer.getChannelData(channel).subarray(start, stop), channel * frames);
    return new AudioSample({ data, format: 'f32-planar', numberOfChannels, sampleRate, timestamp: start / sampleRate });
  }
}
