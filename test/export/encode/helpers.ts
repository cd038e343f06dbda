// Synthetic frames and sound for the encoder's tests, and FFmpeg's view of what it wrote (test/fixtures/media-probe.mjs).
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { VideoOutput } from '../../../src/export/encode/video-output.js';

/** Bytes per fx-media-put message: 1 MiB is 1.4 MB of base64, far under the socket's 100 MiB a message. */
export const MEDIA_PROBE_CHUNK_BYTES = 1024 * 1024;

export interface ProbedStream {
  index: number;
  type: 'video' | 'audio';
  codec: string;
  width?: number;
  height?: number;
  pixFmt?: string;
  /** `matrix/range/primaries/transfer` as tagged. */
  color?: string;
  frames?: number;
  duration: number;
  alphaMode?: string;
  sampleRate?: number;
  channels?: number;
}
export interface Probe {
  format: { name: string; duration: number };
  streams: ProbedStream[];
}

let files = 0;

/** Sends the file to the test server; its id for {@link probe}, {@link psnr} and {@link drop}. */
export async function upload(file: Blob, name = 'export'): Promise<string> {
  const id = `${name}-${Date.now()}-${files++}`;
  const bytes = new Uint8Array(await file.arrayBuffer());
  for (let start = 0; start < bytes.length; start += MEDIA_PROBE_CHUNK_BYTES)
    await executeServerCommand('fx-media-put', {
      id,
      base64: base64(bytes.subarray(start, start + MEDIA_PROBE_CHUNK_BYTES)),
    });
  return id;
}

export const probe = (id: string) => executeServerCommand<Probe, { id: string }>('fx-media-probe', { id });
export const drop = (id: string) => executeServerCommand('fx-media-drop', { id });

/** PSNR (dB, 999 when equal) of frame `frame` of the file against a PNG, in RGB or in the alpha plane. */
export async function psnr(id: string, frame: number, png: Blob, plane: 'rgb' | 'alpha' = 'rgb'): Promise<number> {
  const payload = { id, frame, plane, png: base64(new Uint8Array(await png.arrayBuffer())) };
  return (await executeServerCommand<{ psnr: number }, typeof payload>('fx-media-psnr', payload)).psnr;
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    text += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(text);
}

/**
 * Frame `index` of the synthetic clip: a moving rectangle and the frame's number on a gradient (opaque), or on
 * nothing with a half-transparent band (`alpha`), so a frame out of place or a lost alpha plane shows.
 */
/** A drawn frame's pixels, as the export frame sends them. */
export const pictureOf = (canvas: OffscreenCanvas): ImageData =>
  canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);

export function drawFrame(index: number, width: number, height: number, alpha: boolean): OffscreenCanvas {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d')!;
  if (!alpha) {
    const gradient = context.createLinearGradient(0, 0, width, height);
    gradient.addColorStop(0, '#203060');
    gradient.addColorStop(1, '#60a0c0');
    context.fillStyle = gradient;
    context.fillRect(0, 0, width, height);
  } else {
    context.fillStyle = 'rgba(40, 200, 120, 0.5)';
    context.fillRect(0, height * 0.75, width, height * 0.25);
  }
  const size = Math.round(height / 4);
  context.fillStyle = '#e04020';
  context.fillRect(Math.round((index * 7) % (width - size)), Math.round(height / 6), size, size);
  context.fillStyle = '#ffffff';
  context.font = `bold ${Math.round(height / 8)}px sans-serif`;
  context.fillText(`frame ${index}`, width / 2, height / 2);
  return canvas;
}

export interface Clip {
  /** PNGs of the frames asked for, by index. */
  pngs: Map<number, Blob>;
  /** Frames per second encoded, from the first add to the end of finish. */
  framesPerSecond: number;
  file: Blob | undefined;
}

/** Draws and adds `frames` frames, keeping PNGs of those in `keep`, then finishes. */
export async function encodeClip(
  output: VideoOutput,
  frames: number,
  { width, height, alpha, keep = [] }: { width: number; height: number; alpha: boolean; keep?: number[] },
): Promise<Clip> {
  const pngs = new Map<number, Blob>();
  const started = performance.now();
  for (let index = 0; index < frames; index++) {
    const canvas = drawFrame(index, width, height, alpha);
    if (keep.includes(index)) pngs.set(index, await canvas.convertToBlob({ type: 'image/png' }));
    await output.add(pictureOf(canvas), index);
  }
  const file = await output.finish();
  return { pngs, file, framesPerSecond: frames / ((performance.now() - started) / 1000) };
}

/** `seconds` of a 440 Hz sine, stereo at 44.1 kHz (resampled to 48 kHz by the encoder). */
export function sine(seconds: number, sampleRate = 44_100): AudioBuffer {
  const buffer = new AudioBuffer({ length: Math.round(seconds * sampleRate), numberOfChannels: 2, sampleRate });
  for (let channel = 0; channel < 2; channel++) {
    const data = buffer.getChannelData(channel);
    for (let i = 0; i < data.length; i++) data[i] = 0.3 * Math.sin((2 * Math.PI * 440 * i) / sampleRate);
  }
  return buffer;
}

/** Fails each test of the suite it is called in that leaves an unhandled rejection: cancelling and failing must leave none. */
export function expectNoUnhandledRejections(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => unhandled.push(event.reason);
  before(() => window.addEventListener('unhandledrejection', onUnhandled));
  after(() => window.removeEventListener('unhandledrejection', onUnhandled));
  afterEach(() => expect(unhandled.splice(0), 'unhandled rejections').to.deep.equal([]));
}
