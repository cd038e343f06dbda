// Option checks and output geometry: pure, no browser. Every refusal carries its exact code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFxError } from '../../src/runtime/errors.js';
import { availableParallelism } from 'node:os';
import { checkOptions, DEFAULT_CONCURRENCY, detectAspectRatio, outputGeometry } from '../../src/render/options.js';
import { parseByteRange } from '../../src/render/byte-range.js';
import { compositionUrlPath } from '../../src/render/compile-in-browser.js';
import { encoderPreset } from '../../src/render/encoder-presets.js';
import { videoEncodeArgs } from '../../src/render/video-encoder.js';
import { audioMixArgs } from '../../src/render/audio.js';
import type { RenderOptions } from '../../src/render/types.js';

const base: RenderOptions = {
  projectDir: '/p',
  composition: 'index.html',
  fps: 30,
  quality: 'standard',
  format: 'mp4',
  outputPath: '/o/v.mp4',
};

const hasCode = (code: string) => (error: unknown) => {
  assert.ok(isFxError(error), `expected an FxError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return true;
};

const badOptions: [string, Partial<Record<keyof RenderOptions, unknown>>, RegExp][] = [
  ['fps 0', { fps: 0 }, /"fps" must be an integer from 1 to 240, got 0/],
  ['fps 241', { fps: 241 }, /"fps"/],
  ['fps 29.97', { fps: 29.97 }, /"fps"/],
  ['fps as a string', { fps: '30' }, /"fps"/],
  ['fps NaN', { fps: Number.NaN }, /"fps"/],
  ['quality unknown', { quality: 'ultra' }, /"quality" must be one of draft, standard, high, got "ultra"/],
  ['format unknown', { format: 'avi' }, /"format"/],
  ['format in capitals', { format: 'MP4' }, /"format"/],
  ['resolution unknown', { resolution: '720p' }, /"resolution"/],
  ['aspect ratio unknown', { aspectRatio: '4:3' }, /"aspectRatio"/],
  ['variables an array', { variables: [1, 2] }, /"variables"/],
  ['variables a string', { variables: '{}' }, /"variables"/],
  ['concurrency 0', { concurrency: 0 }, /"concurrency"/],
  ['concurrency 9', { concurrency: 9 }, /"concurrency"/],
  ['capture unknown', { capture: 'screencast' }, /"capture"/],
  ['timeout 0', { timeoutMs: 0 }, /"timeoutMs"/],
  ['projectDir empty', { projectDir: '' }, /"projectDir"/],
  ['composition missing', { composition: undefined }, /"composition"/],
  ['outputPath not a string', { outputPath: 42 }, /"outputPath"/],
  ['onProgress not a function', { onProgress: 'log' }, /"onProgress"/],
  [
    'maxDurationSeconds 0',
    { maxDurationSeconds: 0 },
    /"maxDurationSeconds" must be a number above 0 and at most 86400, got 0/,
  ],
  ['maxDurationSeconds Infinity', { maxDurationSeconds: Number.POSITIVE_INFINITY }, /"maxDurationSeconds"/],
  ['maxDurationSeconds NaN', { maxDurationSeconds: Number.NaN }, /"maxDurationSeconds"/],
  ['maxDurationSeconds as a string', { maxDurationSeconds: '600' }, /"maxDurationSeconds"/],
  ['maxFrames 0', { maxFrames: 0 }, /"maxFrames" must be an integer from 1 to 20736000, got 0/],
  ['maxFrames 1.5', { maxFrames: 1.5 }, /"maxFrames"/],
  ['maxFrames Infinity', { maxFrames: Number.POSITIVE_INFINITY }, /"maxFrames"/],
  [
    'unsafeAllowPrivateNetwork as a string',
    { unsafeAllowPrivateNetwork: 'yes' },
    /"unsafeAllowPrivateNetwork" must be true or false, got "yes"/,
  ],
  ['unsafeAllowPrivateNetwork 1', { unsafeAllowPrivateNetwork: 1 }, /"unsafeAllowPrivateNetwork"/],
  [
    'allowMissingFiles as a string',
    { allowMissingFiles: 'yes' },
    /"allowMissingFiles" must be true or false, got "yes"/,
  ],
  [
    'allowCompositionReadsUnder a string',
    { allowCompositionReadsUnder: 'https://cdn.example/kit/' },
    /"allowCompositionReadsUnder" must be a list of http\(s\) folder URLs/,
  ],
  [
    'allowCompositionReadsUnder a file: folder',
    { allowCompositionReadsUnder: ['file:///etc/'] },
    /"allowCompositionReadsUnder"/,
  ],
  [
    'allowCompositionReadsUnder a relative path',
    { allowCompositionReadsUnder: ['../shared/'] },
    /"allowCompositionReadsUnder"/,
  ],
  ['allowCompositionReadsUnder holding a number', { allowCompositionReadsUnder: [42] }, /"allowCompositionReadsUnder"/],
  ['time as a string', { format: 'png', time: '2.5' }, /"time" must be a number of seconds from 0 to 86400, got "2.5"/],
  ['time negative', { format: 'png', time: -1 }, /"time"/],
  ['time NaN', { format: 'jpeg', time: Number.NaN }, /"time"/],
  ['thumbnailTime Infinity', { thumbnailTime: Number.POSITIVE_INFINITY }, /"thumbnailTime"/],
  ['range a string', { range: '1:2' }, /"range" must be \{ start, end \}/],
  ['range without end', { range: { start: 1 } }, /"range"/],
  ['range with more keys', { range: { start: 1, end: 2, step: 1 } }, /"range"/],
  ['range ending before it starts', { range: { start: 2, end: 1 } }, /"range" must hold at least one frame at 30 fps/],
  ['range within one frame', { range: { start: 1, end: 1.01 } }, /"range" must hold at least one frame/],
  ['loop as a string', { format: 'gif', fps: 15, loop: 'no' }, /"loop" must be true or false, got "no"/],
  ['time for a video', { time: 1 }, /"time" applies to "format" png, jpeg, webp, not mp4/],
  ['loop for a video', { format: 'webm', loop: false }, /"loop" applies to "format" gif, not webm/],
  [
    'range for a still',
    { format: 'png', range: { start: 0, end: 1 } },
    /"range" applies to "format" mp4, webm, mov, gif, not png/,
  ],
  ['thumbnailTime for a still', { format: 'jpeg', thumbnailTime: 1 }, /"thumbnailTime" applies/],
  ['a GIF at 60 fps', { format: 'gif', fps: 60 }, /"fps" of a GIF must be at most 30, got 60/],
  ['a GIF at 31 fps', { format: 'gif', fps: 31 }, /"fps" of a GIF/],
];

for (const [name, change, message] of badOptions) {
  test(`refuses ${name} with render_option_invalid`, () => {
    assert.throws(
      () => checkOptions({ ...base, ...change } as RenderOptions),
      (error) => hasCode('render_option_invalid')(error) && message.test((error as Error).message),
    );
  });
}

for (const format of ['webm', 'mov', 'gif', 'png', 'webp'] as const) {
  test(`refuses 4k with ${format} as resolution_format_unsupported`, () => {
    assert.throws(() => checkOptions({ ...base, format, resolution: '4k' }), hasCode('resolution_format_unsupported'));
  });
}

test('accepts 4k with mp4 and fills defaults', () => {
  const checked = checkOptions({ ...base, resolution: '4k' });
  assert.deepEqual(
    { ...checked },
    {
      fps: 30,
      quality: 'standard',
      format: 'mp4',
      resolution: '4k',
      aspectRatio: undefined,
      variables: {},
      concurrency: DEFAULT_CONCURRENCY,
      capture: 'auto',
      timeoutMs: 30_000,
      maxDurationSeconds: 600,
      maxFrames: 36_000,
      unsafeAllowPrivateNetwork: false,
      allowCompositionReadsUnder: [],
      allowMissingFiles: false,
      time: undefined,
      thumbnailTime: undefined,
      range: undefined,
      loop: undefined,
    },
  );
  assert.equal(DEFAULT_CONCURRENCY, Math.min(2, availableParallelism()));
});

test('accepts 4k with jpeg; a still renders with one browser whatever the concurrency', () => {
  const checked = checkOptions({ ...base, format: 'jpeg', resolution: '4k', time: 2.5, concurrency: 4 });
  assert.deepEqual([checked.resolution, checked.time, checked.concurrency], ['4k', 2.5, 1]);
});

test('a GIF loops forever unless told otherwise, up to 30 fps; other formats have no loop', () => {
  assert.equal(checkOptions({ ...base, format: 'gif', fps: 15 }).loop, true);
  assert.equal(checkOptions({ ...base, format: 'gif', fps: 30, loop: false }).loop, false);
  assert.equal(checkOptions({ ...base, format: 'mp4' }).loop, undefined);
  const ranged = checkOptions({ ...base, format: 'gif', fps: 15, range: { start: 0.5, end: 2 }, thumbnailTime: 1 });
  assert.deepEqual([ranged.range, ranged.thumbnailTime], [{ start: 0.5, end: 2 }, 1]);
});

test('output sizes of the presets', () => {
  const sizes = (width: number, height: number, resolution?: '1080p' | '4k', aspectRatio?: '16:9' | '9:16' | '1:1') => {
    const geometry = outputGeometry({ width, height }, { resolution, aspectRatio });
    return [geometry.width, geometry.height, Number(geometry.scale.toFixed(4))];
  };
  assert.deepEqual(sizes(1920, 1080, '1080p'), [1920, 1080, 1]);
  assert.deepEqual(sizes(1920, 1080, '4k'), [3840, 2160, 2]);
  assert.deepEqual(sizes(1080, 1920, '1080p'), [1080, 1920, 1]);
  assert.deepEqual(sizes(1000, 1000, '1080p'), [1080, 1080, 1.08]);
  assert.deepEqual(sizes(1000, 1000, '4k'), [2160, 2160, 2.16]);
  assert.deepEqual(sizes(320, 180, '1080p'), [1920, 1080, 6]);
  // A 16:9 composition in a square output: fitted by width, letterboxed top and bottom.
  assert.deepEqual(sizes(1920, 1080, '1080p', '1:1'), [1080, 1080, 0.5625]);
  // Without a resolution: the composition's own size, rounded up to even numbers for 4:2:0 video.
  assert.deepEqual(sizes(320, 180), [320, 180, 1]);
  assert.deepEqual(sizes(321, 181), [322, 182, 1]);
  // An aspect ratio alone implies 1080p.
  assert.deepEqual(sizes(320, 180, undefined, '9:16'), [1080, 1920, 3.375]);
});

test('detects the aspect ratio closest to the composition', () => {
  assert.equal(detectAspectRatio(1920, 1080), '16:9');
  assert.equal(detectAspectRatio(1280, 720), '16:9');
  assert.equal(detectAspectRatio(1080, 1920), '9:16');
  assert.equal(detectAspectRatio(500, 500), '1:1');
  assert.equal(detectAspectRatio(1100, 1000), '1:1');
  assert.equal(detectAspectRatio(4000, 1000), '16:9');
});

test('parses byte ranges', () => {
  assert.equal(parseByteRange(undefined, 100), undefined);
  assert.deepEqual(parseByteRange('bytes=0-9', 100), { start: 0, end: 9 });
  assert.deepEqual(parseByteRange('bytes=90-', 100), { start: 90, end: 99 });
  assert.deepEqual(parseByteRange('bytes=-10', 100), { start: 90, end: 99 });
  assert.deepEqual(parseByteRange('bytes=-500', 100), { start: 0, end: 99 });
  assert.deepEqual(parseByteRange('bytes=50-500', 100), { start: 50, end: 99 });
  assert.equal(parseByteRange('bytes=0-1,5-6', 100), undefined);
  assert.equal(parseByteRange('items=0-1', 100), undefined);
});

for (const header of ['bytes=100-', 'bytes=200-300', 'bytes=9-3', 'bytes=-0', 'bytes=-', 'bytes=a-b', 'bytes=1-2-3']) {
  test(`byte range "${header}" of 100 bytes is unsatisfiable`, () => {
    assert.equal(parseByteRange(header, 100), 'unsatisfiable');
  });
}

const refusedPaths = [
  '../index.html',
  'a/../../index.html',
  '/etc/passwd',
  '..',
  'http://example.com/index.html',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'a\0b.html',
  '..\\..\\index.html',
];
for (const path of refusedPaths) {
  test(`refuses composition path ${JSON.stringify(path)}`, () => {
    assert.throws(() => compositionUrlPath(path), hasCode('composition_path_refused'));
  });
}

test('composition paths become encoded URL paths', () => {
  assert.equal(compositionUrlPath('index.html'), 'index.html');
  assert.equal(compositionUrlPath('./scenes/intro one.html'), 'scenes/intro%20one.html');
  assert.equal(compositionUrlPath('a/../b#c?.html'), 'b%23c%3F.html');
});

test('encoder presets: codecs, pixel formats and alpha capture', () => {
  const mp4 = encoderPreset('mp4', 'draft');
  assert.equal(mp4.image, 'jpeg');
  assert.equal(mp4.pixelFormat, 'yuv420p');
  assert.ok(mp4.container.includes('+faststart'));
  const webm = encoderPreset('webm', 'draft');
  assert.deepEqual([webm.image, webm.pixelFormat], ['png', 'yuva420p']);
  assert.ok(
    ['-deadline', 'realtime', '-cpu-used', '8'].every((arg) => webm.codec.includes(arg)) &&
      webm.codec.includes('-row-mt'),
  );
  const mov = encoderPreset('mov', 'high');
  assert.deepEqual([mov.image, mov.pixelFormat], ['png', 'yuva444p10le']);
  assert.ok(mov.codec.includes('prores_ks') && mov.codec.includes('4444'));
  const crf = (quality: 'draft' | 'standard' | 'high') =>
    Number(encoderPreset('mp4', quality).codec[encoderPreset('mp4', quality).codec.indexOf('-crf') + 1]);
  assert.ok(crf('draft') > crf('standard') && crf('standard') > crf('high'));
});

test('the video pass reads frames from stdin and fits them into the output size', () => {
  const args = videoEncodeArgs({
    preset: encoderPreset('mp4', 'standard'),
    fps: 24,
    width: 1920,
    height: 1080,
    outputPath: '/o/v.partial',
    container: 'mp4',
  });
  assert.deepEqual(args.slice(0, 8), ['-f', 'image2pipe', '-framerate', '24', '-c:v', 'mjpeg', '-i', 'pipe:0']);
  const filter = args[args.indexOf('-vf') + 1]!;
  assert.match(filter, /scale=w=1920:h=1080:force_original_aspect_ratio=decrease/);
  assert.match(filter, /pad=w=1920:h=1080/);
  assert.deepEqual(args.slice(-3), ['-f', 'mp4', '/o/v.partial']);
});

test('the mux pass delays, trims and mixes each clip and fits the audio to the video', () => {
  const args = audioMixArgs(
    ['-i', '/v'],
    [
      {
        input: '/p/a.wav',
        protocols: 'file',
        options: ['-protocol_whitelist', 'file'],
        start: 1.5,
        end: 2,
        volume: 0.5,
      },
      {
        input: 'https://x/b.mp3',
        protocols: 'http,https,tcp,tls',
        options: ['-protocol_whitelist', 'http,https,tcp,tls', '-max_redirects', '0'],
        start: 0,
        end: 3,
        volume: 1,
      },
    ],
    3,
    ['-c:a', 'aac'],
    [],
    'mp4',
    '/out',
  );
  // Each input's own options come right before it.
  assert.deepEqual(args.slice(0, 12), [
    '-i',
    '/v',
    '-protocol_whitelist',
    'file',
    '-i',
    '/p/a.wav',
    '-protocol_whitelist',
    'http,https,tcp,tls',
    '-max_redirects',
    '0',
    '-i',
    'https://x/b.mp3',
  ]);
  const graph = args[args.indexOf('-filter_complex') + 1]!;
  assert.match(graph, /\[1:a:0\].*atrim=end=0\.500000.*volume=0\.5000,adelay=delays=1500:all=1\[a0\]/);
  assert.match(graph, /\[2:a:0\].*adelay=delays=0:all=1\[a1\]/);
  assert.match(graph, /\[a0\]\[a1\]amix=inputs=2:normalize=0.*apad=whole_dur=3\.000000,atrim=end=3\.000000\[audio\]/);
  assert.deepEqual(args.slice(args.indexOf('-map'), args.indexOf('-map') + 6), [
    '-map',
    '0:v:0',
    '-map',
    '[audio]',
    '-c:v',
    'copy',
  ]);
});
