import { execFile } from 'node:child_process';
import { executable } from '../executables.js';
import { RenderErrorCode, renderError } from '../errors.js';
import type { RenderFormat } from '../types.js';

/** The codec each format's chunks must carry. */
const CODECS: Partial<Record<RenderFormat, string>> = { mp4: 'h264', webm: 'vp9', mov: 'prores' };
/** Containers ffprobe and the concat demuxer may open: our own outputs, never a playlist pointing elsewhere. */
export const CHUNK_DEMUXERS = 'mov,matroska';
const PROBE_TIMEOUT_MS = 30_000;

/**
 * What must be equal in every chunk for `-c copy` to make one valid stream: codec, profile, size, pixel format,
 * rate, time base, colour tags, alpha mode, and the codec's extradata (H.264's SPS/PPS) by hash.
 */
const SIGNATURE = [
  'codec_name',
  'profile',
  'width',
  'height',
  'pix_fmt',
  'r_frame_rate',
  'time_base',
  'color_range',
  'color_space',
  'color_transfer',
  'color_primaries',
  'extradata_hash',
] as const;

interface ProbedChunk {
  readonly signature: string;
  readonly codec: string;
  readonly width: number;
  readonly height: number;
  readonly rate: string;
  readonly packets: number;
  /** The frames the file says it holds ({@link chunkLabel}). */
  readonly label: string | undefined;
}

/** What a chunk file says it holds, written into its `comment` tag: a chunk file in another's place is refused. */
export const chunkLabel = (from: number, to: number, frames: number) => `fx chunk: frames ${from}-${to} of ${frames}`;

/** Runs ffprobe on one of our own files (only `file:` and our containers) and returns its JSON. */
function ffprobeJson(path: string, entries: string[], signal: AbortSignal | undefined): Promise<string> {
  const args = [
    ...['-v', 'error', '-protocol_whitelist', 'file', '-format_whitelist', CHUNK_DEMUXERS, '-of', 'json'],
    ...entries,
    `file:${path}`,
  ];
  return new Promise<string>((resolve, reject) =>
    execFile(
      executable('ffprobe'),
      args,
      { timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL', ...(signal ? { signal } : {}) },
      (error, out, err) =>
        error
          ? reject(
              renderError(
                RenderErrorCode.chunkFilesMismatched,
                `"${path}" cannot be read: ${err.trim() || error.message}`,
              ),
            )
          : resolve(out),
    ),
  );
}

/** Reads a chunk file's video stream with ffprobe (demuxing only; packets counted, nothing decoded). */
async function probeChunk(path: string, signal?: AbortSignal): Promise<ProbedChunk> {
  const stdout = await ffprobeJson(
    path,
    [
      ...['-count_packets', '-show_data_hash', 'md5', '-show_entries'],
      `stream=codec_type,nb_read_packets,${SIGNATURE.join(',')}:stream_tags=alpha_mode:format_tags=comment`,
    ],
    signal,
  );
  const probed = JSON.parse(stdout) as {
    streams?: Record<string, unknown>[];
    format?: { tags?: Record<string, string> };
  };
  const streams = probed.streams ?? [];
  const video = streams[0];
  if (streams.length !== 1 || video?.codec_type !== 'video')
    throw renderError(
      RenderErrorCode.chunkFilesMismatched,
      `chunk "${path}" must hold one video stream and nothing else`,
    );
  const tags = (video.tags ?? {}) as Record<string, string>;
  return {
    signature: JSON.stringify([...SIGNATURE.map((key) => video[key]), tags.alpha_mode ?? tags.ALPHA_MODE]),
    codec: String(video.codec_name),
    width: Number(video.width),
    height: Number(video.height),
    rate: String(video.r_frame_rate),
    packets: Number(video.nb_read_packets),
    label: probed.format?.tags?.comment ?? probed.format?.tags?.COMMENT,
  };
}

export interface ExpectedChunk {
  readonly path: string;
  readonly from: number;
  readonly to: number;
}

/**
 * Probes every chunk file and refuses (`chunk_files_mismatched`) any that is unreadable, of another codec, size
 * or rate than the render, has another frame count than its range or says it holds other frames, or differs from the first chunk in anything
 * the copy join depends on.
 */
export async function checkChunkFiles(
  chunks: readonly ExpectedChunk[],
  expected: { format: RenderFormat; width: number; height: number; fps: number; frames: number },
  signal?: AbortSignal,
): Promise<void> {
  const probed = await Promise.all(chunks.map((chunk) => probeChunk(chunk.path, signal)));
  probed.forEach((file, index) => {
    const { path, from, to } = chunks[index]!;
    const mismatch = (what: string) =>
      renderError(RenderErrorCode.chunkFilesMismatched, `chunk ${index} ("${path}") ${what}`);
    if (file.codec !== CODECS[expected.format])
      throw mismatch(`holds ${file.codec}, a ${expected.format} render holds ${CODECS[expected.format]}`);
    if (file.width !== expected.width || file.height !== expected.height)
      throw mismatch(`is ${file.width}×${file.height}, the render ${expected.width}×${expected.height}`);
    if (file.rate !== `${expected.fps}/1`) throw mismatch(`runs at ${file.rate} fps, the render at ${expected.fps}`);
    if (file.packets !== to - from) throw mismatch(`has ${file.packets} frames, its range ${to - from}`);
    const label = chunkLabel(from, to, expected.frames);
    if (file.label !== label) throw mismatch(`is not the chunk of frames ${from}-${to}: it says "${file.label ?? ''}"`);
    if (file.signature !== probed[0]!.signature)
      throw mismatch(`was encoded with other settings than chunk 0: ${file.signature} vs ${probed[0]!.signature}`);
  });
}

/** Frames (packets) of the first video stream of a joined file, counted by demuxing. */
export async function videoFrames(path: string, signal?: AbortSignal): Promise<number> {
  const stdout = await ffprobeJson(
    path,
    ['-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=nb_read_packets'],
    signal,
  );
  return Number((JSON.parse(stdout) as { streams?: { nb_read_packets?: string }[] }).streams?.[0]?.nb_read_packets);
}
