// Shared by the render tests: temp folders, fixture copies, FFmpeg-made media, and ffprobe/FFmpeg checks of outputs.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A fresh temp folder, removed by the returned `cleanup`. */
export async function tempDir(prefix = 'fx-render-test-'): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Copies `test/render/fixtures/<name>` into `dir`. */
export async function copyFixture(name: string, dir: string): Promise<string> {
  await cp(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

export async function ffmpeg(args: string[]): Promise<Buffer> {
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/**
 * The media of the `media` fixture: `clip.webm`, 1 s of 30 fps VP9 (lossless) whose frame n is flat gray of
 * luma 30 + 6n (so the frame shown can be read back from a pixel) with a 440 Hz tone, and `tone.wav`, 1 s of 880 Hz.
 */
export async function makeMedia(dir: string): Promise<void> {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    "nullsrc=s=160x90:r=30:d=1,geq=lum='30+N*6':cb=128:cr=128,format=yuv420p",
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=1:r=48000',
    '-c:v',
    'libvpx-vp9',
    '-lossless',
    '1',
    '-c:a',
    'libopus',
    '-shortest',
    join(dir, 'clip.webm'),
  ]);
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=f=880:d=1:r=48000', join(dir, 'tone.wav')]);
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  nb_frames?: string;
  nb_read_frames?: string;
  duration?: string;
  r_frame_rate?: string;
  profile?: string;
  tags?: Record<string, string>;
}

/** ffprobe's streams and format of a file, with frames counted by decoding. */
export async function probe(
  file: string,
): Promise<{ streams: ProbedStream[]; format: { duration?: string; format_name: string } }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_streams',
    '-show_format',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout);
}

/** The video packets of a file in file order: presentation time (s) and byte position. */
export async function packetsOf(file: string): Promise<{ time: number; position: number }[]> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v',
    '-show_entries',
    'packet=pts_time,pos',
    '-of',
    'csv=p=0',
    file,
  ]);
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [time, position] = line.split(',').map(Number);
      return { time: time!, position: position! };
    });
}

/** RGBA of pixel (x, y) in frame `index`; VP9 alpha needs the libvpx decoder, asked for with `vp9Alpha`. */
export async function pixelAt(
  file: string,
  index: number,
  x: number,
  y: number,
  options: { vp9Alpha?: boolean } = {},
): Promise<[number, number, number, number]> {
  const decoder = options.vp9Alpha ? ['-c:v', 'libvpx-vp9'] : [];
  const info = (await probe(file)).streams.find((stream) => stream.codec_type === 'video')!;
  const raw = await ffmpeg([
    ...decoder,
    '-i',
    file,
    '-vf',
    `select=eq(n\\,${index}),format=rgba`,
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    'pipe:1',
  ]);
  const offset = (y * info.width! + x) * 4;
  return [raw[offset]!, raw[offset + 1]!, raw[offset + 2]!, raw[offset + 3]!];
}

/** A solid 8×8 PNG of `color` (an FFmpeg color such as `0x00ff00`), written to `file` and returned. */
export async function solidPng(color: string, file: string): Promise<Buffer> {
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=${color}:s=8x8`, '-frames:v', '1', file]);
  return readFile(file);
}

/** RGB at the centre of 80 px tile `index` (tiles side by side from the left, 80 px tall) in the first frame. */
export const tileColor = async (file: string, index: number) =>
  (await pixelAt(file, 0, 80 * index + 40, 40)).slice(0, 3);

/** True when `rgb` is within 40 of `expected` on every channel (encoding shifts colors a little). */
export const looksLike = (rgb: number[], expected: readonly [number, number, number]) =>
  rgb.every((value, channel) => Math.abs(value - expected[channel]!) < 40);

/** The gray level (mean of R, G, B) of pixel (x, y) in every frame of a video. */
export async function grayAt(file: string, x: number, y: number): Promise<number[]> {
  const raw = await ffmpeg(['-i', file, '-vf', `format=rgb24,crop=1:1:${x}:${y}`, '-f', 'rawvideo', 'pipe:1']);
  return Array.from(
    { length: raw.length / 3 },
    (_, frame) => (raw[frame * 3]! + raw[frame * 3 + 1]! + raw[frame * 3 + 2]!) / 3,
  );
}

/** Row `y` of every frame of a video, as gray levels (mean of R, G, B) per pixel. */
export async function rowAt(file: string, y: number): Promise<number[][]> {
  const info = (await probe(file)).streams.find((stream) => stream.codec_type === 'video')!;
  const width = info.width!;
  const raw = await ffmpeg(['-i', file, '-vf', `format=rgb24,crop=${width}:1:0:${y}`, '-f', 'rawvideo', 'pipe:1']);
  const frames: number[][] = [];
  for (let offset = 0; offset + width * 3 <= raw.length; offset += width * 3) {
    frames.push(
      Array.from(
        { length: width },
        (_, x) => (raw[offset + x * 3]! + raw[offset + x * 3 + 1]! + raw[offset + x * 3 + 2]!) / 3,
      ),
    );
  }
  return frames;
}

/** Writes frame `index` of a video as a PNG. */
export async function extractFrame(file: string, index: number, png: string): Promise<void> {
  await ffmpeg(['-i', file, '-vf', `select=eq(n\\,${index})`, '-frames:v', '1', png]);
}

/**
 * PSNR (dB, average over channels) of two images, from FFmpeg's psnr filter: of the same size, or both scaled to
 * `size` (`[width, height]`) first.
 */
export async function psnr(a: string, b: string, size?: readonly [number, number]): Promise<number> {
  const scale = size ? `scale=${size[0]}:${size[1]}:flags=area,` : '';
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-i',
    a,
    '-i',
    b,
    '-lavfi',
    `[0:v]${scale}format=rgb24[a];[1:v]${scale}format=rgb24[b];[a][b]psnr`,
    '-f',
    'null',
    '-',
  ]);
  const match = /average:(inf|[\d.]+)/.exec(stderr);
  if (!match) throw new Error(`no PSNR in FFmpeg output: ${stderr.slice(-400)}`);
  return match[1] === 'inf' ? Infinity : Number(match[1]);
}

/** Mean volume (dB) of an audio stream between two times, from FFmpeg's volumedetect filter. */
export async function meanVolume(file: string, from: number, to: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-i',
    file,
    '-vn',
    '-af',
    `atrim=${from}:${to},volumedetect`,
    '-f',
    'null',
    '-',
  ]);
  const match = /mean_volume:\s*(-?inf|-?[\d.]+) dB/.exec(stderr);
  if (!match) throw new Error(`no volume in FFmpeg output: ${stderr.slice(-400)}`);
  return match[1]!.endsWith('inf') ? -Infinity : Number(match[1]);
}

/** Live (non-zombie) processes whose command line contains `marker`, e.g. a test's own temp folder. */
export async function processesMentioning(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const state = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (cmdline.includes(marker) && !/\) [ZX] /.test(state)) pids.push(Number(entry));
  }
  return pids;
}

/** Files in a folder (names only); none when the folder does not exist. */
export async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [])).sort();
}

export const isClose = (actual: number, expected: number, tolerance: number) =>
  Math.abs(actual - expected) <= tolerance;

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly userAgent: string;
}

/**
 * An HTTP server on 127.0.0.1 standing for something a project must not reach; it records every request (and
 * WebSocket upgrade) before `respond` answers it.
 */
export async function recordingServer(
  respond: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ origin: string; requests: RecordedRequest[]; close: () => Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const record = (request: IncomingMessage) =>
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      userAgent: request.headers['user-agent'] ?? '',
    });
  const server = createServer((request, response) => {
    record(request);
    respond(request, response);
  });
  server.on('upgrade', (request, socket) => {
    record(request);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A short WAV (0.1 s of a 440 Hz tone, 8 kHz mono 16-bit). */
export function wavBytes(): Buffer {
  const samples = 800;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / 8000)), 44 + index * 2);
  return wav;
}

/** Waits until `condition` holds, checking every 20 ms; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Serves files of `dir` on 127.0.0.1 (HTTP Range, one folder level) as a slow download would: each file's bytes
 * from `cut(name)` on are held until `holdMs` after the first request for that file, then sent.
 */
export async function slowDownloadServer(
  dir: string,
  cut: (name: string) => number,
  holdMs: number,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const releases = new Map<string, number>();
  const server = createServer((request, response) => {
    void (async () => {
      const name = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1));
      const bytes = await readFile(join(dir, name.replaceAll('/', ''))).catch(() => undefined);
      if (!bytes) return void response.writeHead(404).end();
      if (!releases.has(name)) releases.set(name, Date.now() + holdMs);
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range?.[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
      response.writeHead(range ? 206 : 200, {
        'content-type': 'video/mp4',
        'accept-ranges': 'bytes',
        'content-length': end - start + 1,
        ...(range ? { 'content-range': `bytes ${start}-${end}/${bytes.length}` } : {}),
      });
      const held = Math.max(start, cut(name));
      if (start < held) response.write(bytes.subarray(start, Math.min(held, end + 1)));
      if (end >= held) {
        await new Promise((resolve) => setTimeout(resolve, releases.get(name)! - Date.now()));
        response.write(bytes.subarray(held, end + 1));
      }
      response.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
