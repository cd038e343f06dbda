// Chunked renders joined without re-encoding, against a single render of the same composition: frame-exact at
// every boundary (PSNR ≥ 40 dB to the single render's frame, and unlike its neighbour, so a duplicated or lost
// frame shows), alpha kept, audio mixed once, a re-run chunk joins identically, hostile joins refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isFxError } from '../../src/runtime/errors.js';
import {
  ChunkProgress,
  joinChunks,
  planChunks,
  render,
  renderChunk,
  RenderErrorCode,
  type ChunkResult,
  type RenderFormat,
  type RenderOptions,
} from '../../src/render/index.js';
import { copyFixture, ffmpeg, filesIn, FIXTURES, isClose, makeMedia, meanVolume, probe, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

const FPS = 10;
const FRAMES = 30;
const WIDTH = 320;
const HEIGHT = 180;
const options = (format: RenderFormat, outputPath: string): RenderOptions => ({
  projectDir: join(FIXTURES, 'moving-bar'),
  composition: 'index.html',
  fps: FPS,
  quality: 'draft',
  format,
  concurrency: 1,
  outputPath,
});

/** Every frame of a video as RGBA bytes (VP9 alpha decodes only with libvpx). */
async function frames(file: string): Promise<Buffer[]> {
  const decoder = file.endsWith('.webm') ? ['-c:v', 'libvpx-vp9'] : [];
  const raw = await ffmpeg([...decoder, '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1']);
  const size = WIDTH * HEIGHT * 4;
  return Array.from({ length: raw.length / size }, (_, index) => raw.subarray(index * size, (index + 1) * size));
}

function psnr(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += (a[index]! - b[index]!) ** 2;
  return sum === 0 ? Infinity : 10 * Math.log10((255 * 255 * a.length) / sum);
}

/** Renders the chunks of `workers` workers in parallel; their progress, summed, must reach every frame. */
async function renderChunks(format: RenderFormat, workers: number, name: string): Promise<ChunkResult[]> {
  const plan = planChunks(FRAMES, workers, { minChunkFrames: 1 });
  const progress = new ChunkProgress(plan);
  const chunks = await Promise.all(
    plan.map((range) =>
      renderChunk({
        ...options(format, join(dir.path, `${name}-${range.index}.${format}`)),
        chunk: range,
        onProgress: (event) => progress.update(range.index, event),
      }),
    ),
  );
  assert.deepEqual([progress.framesDone, progress.framesTotal], [FRAMES, FRAMES]);
  return chunks;
}

/** Renders `format` whole and in `workers` chunks, joins them, and checks every boundary frame. */
async function compareWithSingle(format: RenderFormat, workers: number) {
  const single = await render(options(format, join(dir.path, `single.${format}`)));
  const chunks = await renderChunks(format, workers, format);
  const joined = await joinChunks({
    chunks,
    outputPath: join(dir.path, `joined.${format}`),
    projectDir: join(FIXTURES, 'moving-bar'),
  });
  const video = (await probe(joined.videoPath)).streams.find((stream) => stream.codec_type === 'video')!;
  assert.equal(Number(video.nb_read_frames), FRAMES, 'fps × duration frames, by decoding');
  assert.equal(joined.frames, FRAMES);
  const [ours, theirs] = await Promise.all([frames(joined.videoPath), frames(single.videoPath)]);
  assert.equal(ours.length, FRAMES);
  for (const { from: boundary } of chunks.slice(1)) {
    for (const index of [boundary - 1, boundary]) {
      const same = psnr(ours[index]!, theirs[index]!);
      assert.ok(same >= 40, `${format} frame ${index} (boundary ${boundary}) is the single render's: ${same} dB`);
    }
    const shifted = psnr(ours[boundary]!, theirs[boundary - 1]!);
    assert.ok(shifted < 30, `${format} frame ${boundary} differs from its neighbour: ${shifted} dB`);
  }
  return { single, joined, chunks, video };
}

let mp4: Awaited<ReturnType<typeof compareWithSingle>>;

test('mp4 in 3 chunks joins to the single render, frame for frame; the thumbnail comes from the joined file', async () => {
  mp4 = await compareWithSingle('mp4', 3);
  assert.deepEqual(
    mp4.chunks.map((chunk) => [chunk.from, chunk.to]),
    [
      [0, 10],
      [10, 20],
      [20, 30],
    ],
  );
  assert.equal(mp4.video.codec_name, 'h264');
  assert.ok(isClose(Number(mp4.video.duration), 3, 0.001), `duration ${mp4.video.duration}`);
  // The thumbnail is frame 10 (1 s): the bar's left edge at x = 100.
  const thumbnail = await readFile(mp4.joined.thumbnailPath);
  assert.deepEqual([...thumbnail.subarray(0, 3)], [0xff, 0xd8, 0xff]);
  const row = await ffmpeg([
    '-i',
    mp4.joined.thumbnailPath,
    '-vf',
    'format=gray,crop=320:1:0:100',
    '-f',
    'rawvideo',
    'pipe:1',
  ]);
  assert.ok(row[104]! > 200 && row[95]! < 60, `bar from x = 100 in the thumbnail: ${row[95]}, ${row[104]}`);
});

test('webm in 2 chunks keeps alpha across the join', async () => {
  const { joined, video } = await compareWithSingle('webm', 2);
  assert.equal(video.tags?.ALPHA_MODE ?? video.tags?.alpha_mode, '1');
  const [first] = await frames(joined.videoPath);
  const alphaAt = (x: number, y: number) => first![(y * WIDTH + x) * 4 + 3]!;
  assert.ok(alphaAt(300, 100) < 10, `transparent background: ${alphaAt(300, 100)}`);
  assert.ok(isClose(alphaAt(200, 10), 128, 30), `half-transparent strip: ${alphaAt(200, 10)}`);
  assert.equal((await probe(joined.thumbnailPath)).streams[0]!.pix_fmt, 'rgba', 'PNG thumbnail with alpha');
});

test('mov in 2 chunks: ProRes 4444 with alpha', async () => {
  const { joined, video } = await compareWithSingle('mov', 2);
  assert.equal(video.profile, '4444');
  assert.match(video.pix_fmt!, /^yuva444p/);
  const [first] = await frames(joined.videoPath);
  assert.ok(first![(100 * WIDTH + 300) * 4 + 3]! < 10, 'transparent background');
});

test('a chunk re-rendered after a failure joins to the identical file', async () => {
  const controller = new AbortController();
  const [, second] = planChunks(FRAMES, 3, { minChunkFrames: 1 });
  const path = join(dir.path, 'retry-1.mp4');
  await assert.rejects(
    renderChunk({
      ...options('mp4', path),
      chunk: second!,
      signal: controller.signal,
      onProgress: (progress) => progress.framesDone >= 3 && controller.abort(),
    }),
    (error) => isFxError(error, RenderErrorCode.aborted),
  );
  assert.ok(!(await filesIn(dir.path)).some((name) => name.startsWith('retry-')), 'nothing left of the failed chunk');
  const retried = await renderChunk({ ...options('mp4', path), chunk: second! });
  const chunks = mp4.chunks.map((chunk) => (chunk.from === retried.from ? retried : chunk));
  const joined = await joinChunks({ chunks, outputPath: join(dir.path, 'retried.mp4'), projectDir: FIXTURES });
  assert.ok((await readFile(joined.videoPath)).equals(await readFile(mp4.joined.videoPath)), 'byte-identical join');
});

test('audio is mixed once over the whole timeline and muxed into the joined file', async () => {
  const project = join(dir.path, 'media');
  await copyFixture('media', project);
  await makeMedia(project);
  const base = { projectDir: project, composition: 'index.html', fps: FPS, quality: 'draft', format: 'mp4' } as const;
  const chunks = await Promise.all(
    planChunks(20, 2, { minChunkFrames: 1 }).map((range) =>
      renderChunk({ ...base, concurrency: 1, chunk: range, outputPath: join(dir.path, `audio-${range.index}.mp4`) }),
    ),
  );
  assert.deepEqual(
    chunks[0]!.audio.map((clip) => ('file' in clip ? clip.file : clip.url)),
    ['clip.webm', 'tone.wav'],
  );
  const joined = await joinChunks({ chunks, outputPath: join(dir.path, 'audio.mp4'), projectDir: project });
  const { streams } = await probe(joined.videoPath);
  const audio = streams.filter((stream) => stream.codec_type === 'audio');
  assert.equal(audio.length, 1);
  assert.ok(isClose(Number(audio[0]!.duration), 2, 0.05), `audio lasts the composition: ${audio[0]!.duration}`);
  assert.equal(joined.hasAudio, true);
  assert.ok((await meanVolume(joined.videoPath, 0, 0.4)) < -60, 'silent before the first clip');
  assert.ok((await meanVolume(joined.videoPath, 1.1, 1.4)) > -40, 'the tone, once, at its time');
});

const refused = (code: string) => (error: unknown) => isFxError(error, code);

test('joins of bad chunk lists are refused before anything is written', async () => {
  const out = join(dir.path, 'hostile', 'out.mp4');
  const join1 = (chunks: readonly ChunkResult[]) => joinChunks({ chunks, outputPath: out, projectDir: FIXTURES });
  const [a, b, c] = mp4.chunks as [ChunkResult, ChunkResult, ChunkResult];
  await assert.rejects(join1([]), refused(RenderErrorCode.chunkRangesInvalid));
  for (const bad of [{ outputPath: '' }, { projectDir: 7 }, { timeoutMs: 0 }, { timeoutMs: 'soon' }])
    await assert.rejects(
      joinChunks({ chunks: mp4.chunks, outputPath: out, projectDir: FIXTURES, ...(bad as object) }),
      refused(RenderErrorCode.optionInvalid),
    );
  await assert.rejects(join1([a, c]), refused(RenderErrorCode.chunkRangesInvalid), 'gap');
  await assert.rejects(join1([a, { ...b, from: 9 }, c]), refused(RenderErrorCode.chunkRangesInvalid), 'overlap');
  await assert.rejects(join1([b, a, c]), refused(RenderErrorCode.chunkRangesInvalid), 'out of order');
  await assert.rejects(join1([a, b]), refused(RenderErrorCode.chunkRangesInvalid), 'last frames missing');
  await assert.rejects(join1([a, { ...b, fps: 12 }, c]), refused(RenderErrorCode.chunkFilesMismatched));
  // Files that lie about what they hold: swapped (other frame count), re-encoded otherwise, not a video.
  await assert.rejects(join1([a, { ...b, path: a.path, to: 20 }, c]), refused(RenderErrorCode.chunkFilesMismatched));
  const reencoded = join(dir.path, 'reencoded.mp4');
  await ffmpeg(['-i', b.path, '-c:v', 'libx264', '-pix_fmt', 'yuv444p', reencoded]);
  await assert.rejects(join1([a, { ...b, path: reencoded }, c]), refused(RenderErrorCode.chunkFilesMismatched));
  const notVideo = join(dir.path, 'playlist.mp4');
  await writeFile(notVideo, '#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n');
  await assert.rejects(join1([a, { ...b, path: notVideo }, c]), refused(RenderErrorCode.chunkFilesMismatched));
  const webm = join(dir.path, 'other.mp4');
  await copyFile(join(dir.path, 'webm-1.webm'), webm);
  await assert.rejects(join1([a, { ...b, path: webm }, c]), refused(RenderErrorCode.chunkFilesMismatched));
  assert.deepEqual(await filesIn(join(dir.path, 'hostile')), []);
});

test('the join mixes audio by the same rules as render: no URL the network policy refuses, no file outside the project', async () => {
  const audio = [
    { tag: 'audio', start: 0, end: 1, volume: 1, url: 'http://127.0.0.1:9/tone.wav' },
    { tag: 'audio', start: 0, end: 1, volume: 1, file: '../animated/index.html' },
  ];
  const chunks = mp4.chunks.map((chunk) => ({ ...chunk, audio }));
  const joined = await joinChunks({
    chunks,
    outputPath: join(dir.path, 'guarded.mp4'),
    projectDir: join(FIXTURES, 'moving-bar'),
  });
  assert.deepEqual(
    joined.issues?.map((issue) => issue.code),
    ['audio_source_blocked', 'audio_source_unsupported'],
  );
  assert.equal(joined.hasAudio, false);
  assert.equal((await probe(joined.videoPath)).streams.length, 1);
});

test('chunk paths are quoted in the concat list: a quote joins, a line break is refused, an abort writes nothing', async () => {
  const [a, b, c] = mp4.chunks as [ChunkResult, ChunkResult, ChunkResult];
  const quoted = join(dir.path, "it's b.mp4");
  await copyFile(b.path, quoted);
  const joined = await joinChunks({
    chunks: [a, { ...b, path: quoted }, c],
    outputPath: join(dir.path, 'quoted.mp4'),
    projectDir: FIXTURES,
  });
  assert.ok((await readFile(joined.videoPath)).equals(await readFile(mp4.joined.videoPath)));
  const out = join(dir.path, 'refused', 'out.mp4');
  const injected = { ...b, path: `${b.path}'\nfile '/etc/passwd` };
  await assert.rejects(
    joinChunks({ chunks: [a, injected, c], outputPath: out, projectDir: FIXTURES }),
    refused(RenderErrorCode.optionInvalid),
  );
  await assert.rejects(
    joinChunks({ chunks: mp4.chunks, outputPath: out, projectDir: FIXTURES, signal: AbortSignal.abort() }),
    refused(RenderErrorCode.aborted),
  );
  assert.deepEqual(await filesIn(join(dir.path, 'refused')), []);
});

test('renderChunk refuses a range the composition does not have', async () => {
  const chunk = (range: unknown) =>
    renderChunk({ ...options('mp4', join(dir.path, 'bad.mp4')), chunk: range as { from: number; to: number } });
  for (const range of [undefined, { from: 5, to: 5 }, { from: -1, to: 3 }, { from: 0, to: 1.5 }, '0-3'])
    await assert.rejects(chunk(range), refused(RenderErrorCode.chunkRangesInvalid));
  await assert.rejects(chunk({ from: 25, to: 31 }), refused(RenderErrorCode.chunkRangesInvalid));
  assert.ok(!(await filesIn(dir.path)).includes('bad.mp4'));
});
