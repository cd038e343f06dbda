// Which audio clips reach the mix: inputs FFmpeg may read, with audio in them, inside the video's duration; and
// what FFmpeg may not be made to fetch (private addresses, redirects, files named by a playlist).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { audioForRange, audioInputs, AudioIssueCode, audioMixArgs } from '../../src/render/audio.js';
import type { PageAudioClip } from '../../src/render/frame-calls.js';
import { RenderNetworkPolicy } from '../../src/render/network/policy.js';
import type { ProjectServer } from '../../src/render/project-server.js';
import { ffmpeg, processesMentioning, recordingServer, tempDir, waitFor, wavBytes } from './helpers.js';

const wavDataUrl = () => `data:audio/wav;base64,${wavBytes().toString('base64')}`;

const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const noProjectFiles = { localFile: async () => undefined } as unknown as ProjectServer;
const clip = (change: Partial<PageAudioClip>): PageAudioClip => ({
  src: wavDataUrl(),
  start: 0,
  end: 1,
  volume: 1,
  tag: 'audio',
  ...change,
});
const guarded = { network: new RenderNetworkPolicy('http://127.0.0.1:1', false) };
const unguarded = { network: new RenderNetworkPolicy('http://127.0.0.1:1', true) };

/** A server on 127.0.0.1 serving a WAV at /tone.wav, redirecting /moved.wav there and never answering /hang.wav. */
let target: Awaited<ReturnType<typeof recordingServer>>;
let dir: { path: string; cleanup: () => Promise<void> };
before(async () => {
  dir = await tempDir();
  target = await recordingServer((request, response) => {
    if (request.url === '/moved.wav') return void response.writeHead(302, { location: '/tone.wav' }).end();
    if (request.url === '/hang.wav') return; // never answered
    response.writeHead(200, { 'content-type': 'audio/wav' }).end(wavBytes());
  });
});
after(async () => {
  await target.close();
  await dir.cleanup();
});

test('keeps a data: clip with audio, trimmed to the video and with its volume', async () => {
  const { inputs, issues } = await audioInputs(
    [clip({ start: 0.5, end: 5, volume: 0.25 })],
    noProjectFiles,
    2,
    guarded,
  );
  assert.deepEqual(issues, []);
  assert.deepEqual(
    inputs.map(({ protocols, start, end, volume }) => ({ protocols, start, end, volume })),
    [{ protocols: 'data', start: 0.5, end: 2, volume: 0.25 }],
  );
  assert.deepEqual(inputs[0]!.options, [
    '-protocol_whitelist',
    'data',
    '-format_whitelist',
    'mov,matroska,ogg,mp3,wav,flac,aac',
  ]);
});

test('maps project URLs to files and only lets FFmpeg read files for them', async () => {
  const server = {
    localFile: async (url: string) => (url === 'http://127.0.0.1:1/a.wav' ? '/project/a.wav' : undefined),
  } as unknown as ProjectServer;
  const { inputs, issues } = await audioInputs([clip({ src: 'http://127.0.0.1:1/a.wav' })], server, 2, guarded);
  // The file does not exist, so the probe finds no audio stream: the clip is left out with a warning.
  assert.deepEqual(inputs, []);
  assert.deepEqual(
    issues.map((found) => [found.code, found.severity]),
    [[AudioIssueCode.streamMissing, 'warning']],
  );
});

test('leaves out clips that start after the end or are silent, without an issue', async () => {
  const { inputs, issues } = await audioInputs([clip({ start: 2 }), clip({ volume: 0 })], noProjectFiles, 2, guarded);
  assert.deepEqual([inputs, issues], [[], []]);
});

for (const src of [
  'blob:http://127.0.0.1:1/4f0c',
  'file:///etc/passwd',
  'ftp://example.com/a.mp3',
  'javascript:alert(1)',
]) {
  test(`refuses to hand ${src.split(':')[0]}: sources to FFmpeg`, async () => {
    const { inputs, issues } = await audioInputs([clip({ src })], noProjectFiles, 2, guarded);
    assert.deepEqual(inputs, []);
    assert.deepEqual(
      issues.map((found) => found.code),
      [AudioIssueCode.sourceUnsupported],
    );
  });
}

test('a source without an audio stream is left out with audio_stream_missing', async () => {
  const { inputs, issues } = await audioInputs([clip({ src: PNG_DATA_URL, tag: 'video' })], noProjectFiles, 2, guarded);
  assert.deepEqual(inputs, []);
  assert.deepEqual(
    issues.map((found) => [found.code, found.path]),
    [[AudioIssueCode.streamMissing, ['video', 'src']]],
  );
});

test('an http source on a private address is refused with audio_source_blocked, and never fetched', async () => {
  const before = target.requests.length;
  const { inputs, issues } = await audioInputs(
    [clip({ src: `${target.origin}/tone.wav` })],
    noProjectFiles,
    2,
    guarded,
  );
  assert.deepEqual(inputs, []);
  assert.deepEqual(
    issues.map((found) => [found.code, found.severity]),
    [[AudioIssueCode.sourceBlocked, 'warning']],
  );
  assert.match(issues[0]!.message, /host "127\.0\.0\.1" is not a public address/);
  assert.deepEqual(target.requests.slice(before), []);
});

test('unsafeAllowPrivateNetwork lets FFmpeg read it, with no redirects allowed', async () => {
  const { inputs, issues } = await audioInputs(
    [clip({ src: `${target.origin}/tone.wav` })],
    noProjectFiles,
    2,
    unguarded,
  );
  assert.deepEqual(issues, []);
  assert.deepEqual(inputs[0]!.options, [
    '-protocol_whitelist',
    'http,https,tcp,tls',
    '-format_whitelist',
    'mov,matroska,ogg,mp3,wav,flac,aac',
    '-max_redirects',
    '0',
  ]);
  assert.ok(
    target.requests.some((request) => request.url === '/tone.wav' && /Lavf/.test(request.userAgent)),
    'ffprobe read the file',
  );
});

test('FFmpeg follows no redirect: a source that redirects is left out, its target never fetched', async () => {
  const before = target.requests.length;
  const { inputs, issues } = await audioInputs(
    [clip({ src: `${target.origin}/moved.wav` })],
    noProjectFiles,
    2,
    unguarded,
  );
  assert.deepEqual(inputs, []);
  assert.deepEqual(
    issues.map((found) => found.code),
    [AudioIssueCode.streamMissing],
  );
  assert.deepEqual(
    target.requests.slice(before).map((request) => request.url),
    ['/moved.wav'],
  );
});

test('a project file that is a playlist naming another file is left out (FFmpeg opens media containers only)', async () => {
  const segment = join(dir.path, 'elsewhere.ts');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=d=1', segment]);
  const playlist = join(dir.path, 'song.mp3');
  await writeFile(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${segment}\n#EXT-X-ENDLIST\n`);
  // Control: opened as FFmpeg would by default, the playlist does play the other file.
  const { stdout } = await promisify(execFile)('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'a',
    '-show_entries',
    'stream=index',
    '-of',
    'csv=p=0',
    playlist,
  ]);
  assert.match(stdout, /^0$/m);
  const server = { localFile: async () => playlist } as unknown as ProjectServer;
  const { inputs, issues } = await audioInputs([clip({ src: 'http://127.0.0.1:1/song.mp3' })], server, 2, guarded);
  assert.deepEqual(inputs, []);
  assert.deepEqual(
    issues.map((found) => found.code),
    [AudioIssueCode.streamMissing],
  );
});

test('an abort kills a running ffprobe and rejects with the abort reason', async () => {
  const controller = new AbortController();
  const src = `${target.origin}/hang.wav`;
  const probing = audioInputs([clip({ src })], noProjectFiles, 2, { ...unguarded, signal: controller.signal });
  await waitFor(() => target.requests.some((request) => request.url === '/hang.wav'), 'ffprobe to ask for /hang.wav');
  assert.equal((await processesMentioning(src)).length, 1, 'ffprobe is running');
  const reason = new Error('stop');
  const abortedAt = Date.now();
  controller.abort(reason);
  await assert.rejects(probing, (error) => error === reason);
  // Not the probe's own 15 s limit ending it.
  assert.ok(Date.now() - abortedAt < 5000, `rejected ${Date.now() - abortedAt} ms after the abort`);
  assert.deepEqual(await processesMentioning(src), []);
});

test('audioForRange: offsets move by -start, a clip playing at the start is picked up mid-way, others dropped', () => {
  const input = (start: number, end: number) => ({
    input: 'a.wav',
    protocols: 'file',
    options: [],
    start,
    end,
    volume: 1,
  });
  const inputs = [input(0, 0.5), input(0.5, 1.5), input(1.4, 3), input(2.5, 3)];
  const round = (value: number | undefined) => (value === undefined ? undefined : Number(value.toFixed(6)));
  assert.deepEqual(
    audioForRange(inputs, 1.2, 0.8).map(({ start, end, skip }) => [start, end, skip].map(round)),
    [
      [0, 0.3, 0.7],
      [0.2, 1.8, 0],
    ],
  );
  assert.deepEqual(audioForRange(inputs, 0, 2.5), inputs.slice(0, 3), 'a whole render keeps what starts in it');
  const [picked] = audioForRange([input(0.5, 1.5)], 1, 1);
  const filter = audioMixArgs(['-i', 'v.mp4'], [picked!], 1, [], [], 'mp4', 'o.mp4').join(' ');
  assert.match(filter, /atrim=start=0\.500000:end=1\.000000,asetpts=PTS-STARTPTS,volume=1\.0000,adelay=delays=0:all=1/);
});
