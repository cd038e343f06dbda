/** The video codecs export writes (mediabunny's names). */
export type ExportVideoCodec = 'avc' | 'vp9' | 'vp8' | 'av1';

/**
 * The WebCodecs codec string of a codec at a size and bitrate: 8-bit 4:2:0, the lowest level whose picture size and
 * bitrate limits take it (the level tables of H.264, VP9 and AV1, as mediabunny builds them). Built here rather
 * than left to mediabunny so the string is known, checked with `VideoEncoder.isConfigSupported` and reported
 * before the first frame; mediabunny is then given it (`fullCodecString`).
 */
export function videoCodecString(codec: ExportVideoCodec, width: number, height: number, bitrate: number): string {
  const pixels = width * height;
  switch (codec) {
    case 'avc': {
      // High profile (0x64), no constraint flags; the level from macroblocks per frame and the bitrate.
      const macroblocks = Math.ceil(width / 16) * Math.ceil(height / 16);
      const level = pick(AVC_LEVELS, (entry) => macroblocks <= entry[0] && bitrate <= entry[1]);
      return `avc1.6400${hex(level[2])}`;
    }
    case 'vp9': {
      const level = pick(VP9_LEVELS, (entry) => pixels <= entry[0] && bitrate <= entry[1]);
      return `vp09.00.${String(level[2]).padStart(2, '0')}.08`;
    }
    case 'av1': {
      const level = pick(AV1_LEVELS, (entry) => pixels <= entry[0] && bitrate <= entry[1]);
      return `av01.0.${String(level[2]).padStart(2, '0')}${level[3]}.08`;
    }
    case 'vp8':
      return 'vp8';
  }
}

const hex = (value: number): string => value.toString(16).padStart(2, '0');

/** The first entry that fits, else the highest level (the encoder then says whether it takes it). */
function pick<Entry>(table: readonly Entry[], fits: (entry: Entry) => boolean): Entry {
  return table.find(fits) ?? table[table.length - 1]!;
}

/** H.264 levels: [max macroblocks per frame, max bitrate (High profile), level_idc]. */
const AVC_LEVELS: readonly (readonly [number, number, number])[] = [
  [99, 64_000, 0x0a],
  [396, 192_000, 0x0b],
  [396, 384_000, 0x0c],
  [396, 768_000, 0x0d],
  [396, 2_000_000, 0x14],
  [792, 4_000_000, 0x15],
  [1620, 4_000_000, 0x16],
  [1620, 10_000_000, 0x1e],
  [3600, 14_000_000, 0x1f],
  [5120, 20_000_000, 0x20],
  [8192, 20_000_000, 0x28],
  [8192, 50_000_000, 0x29],
  [8704, 50_000_000, 0x2a],
  [22080, 135_000_000, 0x32],
  [36864, 240_000_000, 0x33],
  [36864, 240_000_000, 0x34],
  [139264, 240_000_000, 0x3c],
  [139264, 480_000_000, 0x3d],
  [139264, 800_000_000, 0x3e],
];

/** VP9 levels: [max picture size, max bitrate, level × 10]. */
const VP9_LEVELS: readonly (readonly [number, number, number])[] = [
  [36864, 200_000, 10],
  [73728, 800_000, 11],
  [122880, 1_800_000, 20],
  [245760, 3_600_000, 21],
  [552960, 7_200_000, 30],
  [983040, 12_000_000, 31],
  [2228224, 18_000_000, 40],
  [2228224, 30_000_000, 41],
  [8912896, 60_000_000, 50],
  [8912896, 120_000_000, 51],
  [8912896, 180_000_000, 52],
  [35651584, 180_000_000, 60],
  [35651584, 240_000_000, 61],
  [35651584, 480_000_000, 62],
];

/** AV1 levels: [max picture size, max bitrate, seq_level_idx, tier]. */
const AV1_LEVELS: readonly (readonly [number, number, number, 'M' | 'H'])[] = [
  [147456, 1_500_000, 0, 'M'],
  [278784, 3_000_000, 1, 'M'],
  [665856, 6_000_000, 4, 'M'],
  [1065024, 10_000_000, 5, 'M'],
  [2359296, 12_000_000, 8, 'M'],
  [2359296, 30_000_000, 8, 'H'],
  [2359296, 20_000_000, 9, 'M'],
  [2359296, 50_000_000, 9, 'H'],
  [8912896, 30_000_000, 12, 'M'],
  [8912896, 100_000_000, 12, 'H'],
  [8912896, 40_000_000, 13, 'M'],
  [8912896, 160_000_000, 13, 'H'],
  [8912896, 60_000_000, 14, 'M'],
  [8912896, 240_000_000, 14, 'H'],
  [35651584, 60_000_000, 15, 'M'],
  [35651584, 240_000_000, 15, 'H'],
  [35651584, 60_000_000, 16, 'M'],
  [35651584, 240_000_000, 16, 'H'],
  [35651584, 100_000_000, 17, 'M'],
  [35651584, 480_000_000, 17, 'H'],
  [35651584, 160_000_000, 18, 'M'],
  [35651584, 800_000_000, 18, 'H'],
];
