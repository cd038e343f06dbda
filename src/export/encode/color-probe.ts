/**
 * The YUV matrix and range a browser's video encoder really converts RGB frames with, found by encoding one frame
 * of a flat green and decoding it. An encoder given RGB converts it to YUV itself and says in its decoder config which
 * conversion it used; the file is tagged with that, and players convert back with it. Firefox 153 says BT.709
 * (limited range) but converts with BT.601, so every colour of its files is shifted a little (PSNR against the
 * source capped near 35 dB; 42 dB once tagged BT.601). Where the probe disagrees with what the encoder says, the
 * probe's conversion is what the file is tagged with.
 */

type Matrix = 'bt709' | 'smpte170m';
/** Kr and Kb of each matrix: BT.709 and BT.601 (SMPTE 170M). */
const WEIGHTS: Readonly<Record<Matrix, readonly [number, number]>> = {
  bt709: [0.2126, 0.0722],
  smpte170m: [0.299, 0.114],
};
const CONVERSIONS: readonly { matrix: Matrix; fullRange: boolean }[] = [
  { matrix: 'bt709', fullRange: false },
  { matrix: 'smpte170m', fullRange: false },
  { matrix: 'bt709', fullRange: true },
  { matrix: 'smpte170m', fullRange: true },
];
/** A green the two matrices part widely on (Y 17 apart), far from clipping either way. */
const PROBE_RGB: readonly [number, number, number] = [60, 180, 80];

type Triple = readonly [number, number, number];

/** 8-bit R′G′B′ → Y′CbCr in a matrix and range. */
function toYCbCr([r, g, b]: Triple, matrix: Matrix, fullRange: boolean): Triple {
  const [kr, kb] = WEIGHTS[matrix];
  const y = (kr * r + (1 - kr - kb) * g + kb * b) / 255;
  const pb = (b / 255 - y) / (2 * (1 - kb));
  const pr = (r / 255 - y) / (2 * (1 - kr));
  return fullRange ? [255 * y, 128 + 255 * pb, 128 + 255 * pr] : [16 + 219 * y, 128 + 224 * pb, 128 + 224 * pr];
}

const SIZE = 64;
const PROBE_TIMEOUT_MS = 3000;
const found = new Map<string, Promise<VideoColorSpaceInit | undefined>>();

/**
 * The colour space to tag the video with when it differs from what the encoder reports (undefined when they agree
 * or when the probe cannot tell: no decoder for the codec, a decoded format it does not read). Once per codec.
 */
export function encoderColorFix(config: VideoEncoderConfig): Promise<VideoColorSpaceInit | undefined> {
  let fix = found.get(config.codec);
  if (fix === undefined) {
    // Bounded: an encoder or decoder that never answers leaves the tag as reported rather than the export waiting.
    const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, PROBE_TIMEOUT_MS, undefined));
    fix = Promise.race([probe(config).catch(() => undefined), timeout]);
    found.set(config.codec, fix);
  }
  return fix;
}

async function probe(base: VideoEncoderConfig): Promise<VideoColorSpaceInit | undefined> {
  // RGBA bytes, as the export's frames are made (video-output.ts).
  const pixels = new Uint8Array(SIZE * SIZE * 4).map((_, at) => (at % 4 === 3 ? 255 : PROBE_RGB[at % 4]!));
  const chunks: EncodedVideoChunk[] = [];
  let decoderConfig: VideoDecoderConfig | undefined;
  const encoder = new VideoEncoder({
    output: (chunk, meta) => {
      chunks.push(chunk);
      decoderConfig ??= meta?.decoderConfig;
    },
    error: () => {},
  });
  const { codec, avc } = base as VideoEncoderConfig & { avc?: unknown };
  try {
    encoder.configure({
      codec,
      width: SIZE,
      height: SIZE,
      bitrate: 2_000_000,
      ...(avc ? { avc } : {}),
    } as VideoEncoderConfig);
    const frame = new VideoFrame(pixels, { format: 'RGBA', codedWidth: SIZE, codedHeight: SIZE, timestamp: 0 });
    encoder.encode(frame, { keyFrame: true });
    frame.close();
    await encoder.flush();
  } finally {
    if (encoder.state !== 'closed') encoder.close();
  }
  if (decoderConfig === undefined || chunks.length === 0) return undefined;
  const reported = decoderConfig.colorSpace;

  let decoded: VideoFrame | undefined;
  const decoder = new VideoDecoder({ output: (frame) => (decoded ??= frame), error: () => {} });
  try {
    if (!(await VideoDecoder.isConfigSupported(decoderConfig)).supported) return undefined;
    decoder.configure(decoderConfig);
    for (const chunk of chunks) decoder.decode(chunk);
    await decoder.flush();
  } finally {
    if (decoder.state !== 'closed') decoder.close();
  }
  if (decoded === undefined) return undefined;
  try {
    const sample = await centreYCbCr(decoded, reported);
    if (sample === undefined) return undefined;
    const distances = CONVERSIONS.map((conversion) =>
      distance(toYCbCr(PROBE_RGB, conversion.matrix, conversion.fullRange), sample),
    );
    const best = distances.indexOf(Math.min(...distances));
    const nearest = CONVERSIONS[best]!;
    if (distances[best]! > 6) return undefined;
    if (reported?.matrix === nearest.matrix && (reported.fullRange ?? false) === nearest.fullRange) return undefined;
    return {
      matrix: nearest.matrix,
      fullRange: nearest.fullRange,
      primaries: reported?.primaries ?? 'bt709',
      transfer: reported?.transfer ?? 'bt709',
    };
  } finally {
    decoded.close();
  }
}

const distance = (a: Triple, b: Triple) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * Y′CbCr at the frame's centre. From a planar or semi-planar frame as it is; from an RGB one (Firefox's decoder
 * converts back itself, with the matrix the encoder reported), by converting back with that matrix.
 */
async function centreYCbCr(frame: VideoFrame, reported: VideoColorSpaceInit | undefined): Promise<Triple | undefined> {
  const format = frame.format;
  if (format === null) return undefined;
  const buffer = new Uint8Array(frame.allocationSize());
  const layout = await frame.copyTo(buffer);
  const centre = SIZE / 2;
  const at = (plane: number, x: number, y: number, step = 1) =>
    buffer[layout[plane]!.offset + y * layout[plane]!.stride + x * step]!;
  if (format === 'I420' || format === 'I420A')
    return [at(0, centre, centre), at(1, centre / 2, centre / 2), at(2, centre / 2, centre / 2)];
  if (format === 'NV12') {
    const offset = layout[1]!.offset + (centre / 2) * layout[1]!.stride + centre;
    return [at(0, centre, centre), buffer[offset]!, buffer[offset + 1]!];
  }
  const order =
    format === 'RGBA' || format === 'RGBX' ? [0, 1, 2] : format === 'BGRA' || format === 'BGRX' ? [2, 1, 0] : undefined;
  if (order === undefined) return undefined;
  const pixel = layout[0]!.offset + centre * layout[0]!.stride + centre * 4;
  const rgb: Triple = [buffer[pixel + order[0]!]!, buffer[pixel + order[1]!]!, buffer[pixel + order[2]!]!];
  const matrix = reported?.matrix === 'smpte170m' || reported?.matrix === 'bt470bg' ? 'smpte170m' : 'bt709';
  return toYCbCr(rgb, matrix, reported?.fullRange ?? false);
}
