// Which audio clips reach the mix: inputs FFmpeg may read, with audio in them, inside the video's duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { audioInputs, AudioIssueCode, type PageAudioClip } from '../../src/render/audio.js';
import type { ProjectServer } from '../../src/render/project-server.js';

/** A tiny WAV (0.01 s of silence, 8 kHz mono 16-bit) as a data: URL. */
function wavDataUrl(): string {
  const samples = 80;
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
  return `data:audio/wav;base64,${wav.toString('base64')}`;
}

const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const noProjectFiles = { localFile: async () => undefined } as unknown as ProjectServer;
const clip = (change: Partial<PageAudioClip>): PageAudioClip => ({ src: wavDataUrl(), start: 0, end: 1, volume: 1, tag: 'audio', ...change });

test('keeps a data: clip with audio, trimmed to the video and with its volume', async () => {
  const { inputs, issues } = await audioInputs([clip({ start: 0.5, end: 5, volume: 0.25 })], noProjectFiles, 2);
  assert.deepEqual(issues, []);
  assert.deepEqual(inputs.map(({ protocols, start, end, volume }) => ({ protocols, start, end, volume })), [{ protocols: 'data', start: 0.5, end: 2, volume: 0.25 }]);
});

test('maps project URLs to files and only lets FFmpeg read files for them', async () => {
  const server = { localFile: async (url: string) => (url === 'http://127.0.0.1:1/a.wav' ? '/project/a.wav' : undefined) } as unknown as ProjectServer;
  const { inputs, issues } = await audioInputs([clip({ src: 'http://127.0.0.1:1/a.wav' })], server, 2);
  // The file does not exist, so the probe finds no audio stream: the clip is left out with a warning.
  assert.deepEqual(inputs, []);
  assert.deepEqual(issues.map((found) => [found.code, found.severity]), [[AudioIssueCode.streamMissing, 'warning']]);
});

test('leaves out clips that start after the end or are silent, without an issue', async () => {
  const { inputs, issues } = await audioInputs([clip({ start: 2 }), clip({ volume: 0 })], noProjectFiles, 2);
  assert.deepEqual([inputs, issues], [[], []]);
});

for (const src of ['blob:http://127.0.0.1:1/4f0c', 'file:///etc/passwd', 'ftp://example.com/a.mp3', 'javascript:alert(1)']) {
  test(`refuses to hand ${src.split(':')[0]}: sources to FFmpeg`, async () => {
    const { inputs, issues } = await audioInputs([clip({ src })], noProjectFiles, 2);
    assert.deepEqual(inputs, []);
    assert.deepEqual(issues.map((found) => found.code), [AudioIssueCode.sourceUnsupported]);
  });
}

test('a source without an audio stream is left out with audio_stream_missing', async () => {
  const { inputs, issues } = await audioInputs([clip({ src: PNG_DATA_URL, tag: 'video' })], noProjectFiles, 2);
  assert.deepEqual(inputs, []);
  assert.deepEqual(issues.map((found) => [found.code, found.path]), [[AudioIssueCode.streamMissing, ['video', 'src']]]);
});
