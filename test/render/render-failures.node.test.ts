// Every way a render can fail, each with its exact code, and that a failed or aborted render leaves nothing behind:
// no output file, no partial file, no browser or FFmpeg process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isFxError } from '../../src/runtime/errors.js';
import { render } from '../../src/render/index.js';
import type { RenderOptions } from '../../src/render/types.js';
import { FIXTURES, filesIn, processesMentioning, recordingServer, tempDir, wavBytes } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
let counter = 0;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

const hasCode = (code: string) => (error: unknown) => {
  assert.ok(isFxError(error), `expected an FxError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return true;
};

/** A project folder holding one `index.html`. */
async function project(html: string): Promise<string> {
  const path = join(dir.path, `project-${++counter}`);
  await mkdir(path);
  await writeFile(join(path, 'index.html'), html);
  return path;
}

/** A fresh, empty output folder (not created yet). */
const outputDir = () => join(dir.path, `out-${++counter}`);

const options = (projectDir: string, out: string, change: Partial<RenderOptions> = {}): RenderOptions => ({
  projectDir,
  composition: 'index.html',
  fps: 10,
  quality: 'draft',
  format: 'mp4',
  outputPath: join(out, 'video.mp4'),
  ...change,
});

/** Runs `body` with environment variables set, restoring them afterwards. */
async function withEnv(values: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  try {
    await body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** An executable shell script standing in for a program. */
async function fakeProgram(name: string, script: string): Promise<string> {
  const path = join(dir.path, name);
  await writeFile(path, `#!/bin/sh\n${script}\n`);
  await chmod(path, 0o755);
  return path;
}

const root = (attributes: string, body = '') =>
  `<!doctype html><html><body><div id="root" ${attributes}>${body}</div></body></html>`;

const brokenEntries: [string, string | undefined, string][] = [
  ['a missing entry file', undefined, 'composition_not_found'],
  ['an empty entry file', '   \n', 'composition_empty'],
  [
    'an entry without data-composition-id',
    root('data-width="320" data-height="180" data-duration="1"'),
    'composition_invalid',
  ],
  [
    'an entry without data-duration',
    root('data-composition-id="x" data-width="320" data-height="180"'),
    'composition_duration_missing',
  ],
  [
    'an entry with data-duration="0"',
    root('data-composition-id="x" data-width="320" data-height="180" data-duration="0"'),
    'composition_duration_missing',
  ],
  [
    'an entry with data-duration="soon"',
    root('data-composition-id="x" data-width="320" data-height="180" data-duration="soon"'),
    'composition_duration_missing',
  ],
];
for (const [name, html, code] of brokenEntries) {
  test(`${name} fails with ${code} and writes nothing`, async () => {
    const projectDir = html === undefined ? join(dir.path, `project-${++counter}`) : await project(html);
    if (html === undefined) await mkdir(projectDir);
    const out = outputDir();
    await assert.rejects(render(options(projectDir, out)), hasCode(code));
    assert.deepEqual(await filesIn(out), []);
  });
}

test('a project folder that does not exist fails with project_not_found', async () => {
  await assert.rejects(render(options(join(dir.path, 'nowhere'), outputDir())), hasCode('project_not_found'));
});

for (const composition of ['../index.html', '/etc/hosts', 'https://example.com/index.html']) {
  test(`composition ${JSON.stringify(composition)} fails with composition_path_refused`, async () => {
    await assert.rejects(
      render(options(join(FIXTURES, 'animated'), outputDir(), { composition })),
      hasCode('composition_path_refused'),
    );
  });
}

test('4k with webm is refused before any work: no folder, no browser', async () => {
  const out = outputDir();
  await assert.rejects(
    render(
      options(join(FIXTURES, 'animated'), out, { format: 'webm', resolution: '4k', outputPath: join(out, 'v.webm') }),
    ),
    hasCode('resolution_format_unsupported'),
  );
  assert.equal(existsSync(out), false);
});

test('aborting mid-render kills the browser and FFmpeg, removes partial output and rejects with render_aborted', async () => {
  const out = outputDir();
  const controller = new AbortController();
  let framesWhenAborted = 0;
  // Browser profiles live under TMPDIR: pointing it into our folder makes this render's processes findable.
  const scratch = join(dir.path, `tmp-${++counter}`);
  await mkdir(scratch);
  await withEnv({ TMPDIR: scratch }, async () => {
    const running = render(
      options(join(FIXTURES, 'animated'), out, {
        fps: 60,
        signal: controller.signal,
        onProgress: ({ stage, framesDone }) => {
          if (stage === 'capturing' && framesDone === 10) {
            framesWhenAborted = framesDone;
            controller.abort();
          }
        },
      }),
    );
    await assert.rejects(running, hasCode('render_aborted'));
  });
  assert.equal(framesWhenAborted, 10);
  assert.deepEqual(await filesIn(out), []);
  assert.deepEqual(await processesMentioning(scratch), [], 'no browser left');
  assert.deepEqual(await processesMentioning(out), [], 'no FFmpeg left');
  assert.deepEqual(await filesIn(scratch), ['fx-render-profiles']);
  assert.deepEqual(await filesIn(join(scratch, 'fx-render-profiles')), [], 'browser profile removed');
});

test('aborting while ffprobe reads an audio source leaves no ffprobe, FFmpeg or browser behind', async () => {
  // The server plays along with the browser but never answers FFmpeg (user agent Lavf): the probe hangs.
  const controller = new AbortController();
  const audioServer = await recordingServer((request, response) => {
    if (/Lavf/.test(request.headers['user-agent'] ?? '')) return void controller.abort();
    response.writeHead(200, { 'content-type': 'audio/wav' }).end(wavBytes());
  });
  const src = `${audioServer.origin}/hanging-${++counter}.wav`;
  const withAudio = await project(
    root(
      'data-composition-id="a" data-width="320" data-height="180" data-duration="1"',
      `<audio src="${src}"></audio>`,
    ),
  );
  const out = outputDir();
  const scratch = join(dir.path, `tmp-${++counter}`);
  await mkdir(scratch);
  try {
    await withEnv({ TMPDIR: scratch }, async () => {
      await assert.rejects(
        render(options(withAudio, out, { signal: controller.signal, unsafeAllowPrivateNetwork: true })),
        hasCode('render_aborted'),
      );
    });
    assert.ok(
      audioServer.requests.some((request) => /Lavf/.test(request.userAgent)),
      'ffprobe was reading the source when the render was aborted',
    );
    assert.deepEqual(await processesMentioning(src), [], 'no ffprobe left');
    assert.deepEqual(await processesMentioning(out), [], 'no FFmpeg left');
    assert.deepEqual(await processesMentioning(scratch), [], 'no browser left');
  } finally {
    await audioServer.close();
  }
});

const tooLong: [string, string, Partial<RenderOptions>, RegExp][] = [
  ['data-duration="1e308"', '1e308', {}, /at most 600 s \("maxDurationSeconds"\), got "data-duration" 1e\+308/],
  ['2 s over maxDurationSeconds 1.5', '2', { maxDurationSeconds: 1.5 }, /at most 1.5 s/],
  [
    '20 frames over maxFrames 19',
    '2',
    { maxFrames: 19 },
    /at most 19 frames \("maxFrames"\), got 20 \(2 s at 10 fps\)/,
  ],
];
for (const [name, duration, change, message] of tooLong) {
  test(`${name} fails with composition_duration_too_long before any frame is captured`, async () => {
    const long = await project(
      root(`data-composition-id="long" data-width="320" data-height="180" data-duration="${duration}"`),
    );
    const out = outputDir();
    const stages = new Set<string>();
    await assert.rejects(
      render(options(long, out, { ...change, onProgress: ({ stage }) => stages.add(stage) })),
      (error) => hasCode('composition_duration_too_long')(error) && message.test((error as Error).message),
    );
    assert.deepEqual([...stages], ['compiling']);
    assert.deepEqual(await filesIn(out), []);
  });
}

test('a render removes the browser profiles of dead processes, and only those', async () => {
  const scratch = join(dir.path, `tmp-${++counter}`);
  const profiles = join(scratch, 'fx-render-profiles');
  // A pid that surely ran and is gone: a child that already exited.
  const dead = await new Promise<number>((resolve) => {
    const child = spawn('true');
    child.once('exit', () => resolve(child.pid!));
  });
  for (const name of [`${dead}-kill9ed`, `${process.pid}-alive`, 'not-a-profile']) {
    await mkdir(join(profiles, name), { recursive: true });
    await writeFile(join(profiles, name, 'Local State'), '{}');
  }
  await withEnv({ TMPDIR: scratch }, async () => {
    await render(options(join(FIXTURES, 'animated'), outputDir(), { fps: 1 }));
  });
  assert.deepEqual(await filesIn(profiles), [`${process.pid}-alive`, 'not-a-profile']);
});

test('an already aborted signal rejects with render_aborted and creates nothing', async () => {
  const out = outputDir();
  await assert.rejects(
    render(options(join(FIXTURES, 'animated'), out, { signal: AbortSignal.abort() })),
    hasCode('render_aborted'),
  );
  assert.equal(existsSync(out), false);
});

test('a composition whose seek never returns fails with render_timeout and its browser is killed', async () => {
  const hanging = await project(
    root(
      'data-composition-id="hang" data-width="320" data-height="180" data-duration="1"',
      '<script>window.__timelines.hang = { pause() {}, seek(t) { if (t > 0.3) for (;;) {} } };</script>',
    ),
  );
  const out = outputDir();
  const scratch = join(dir.path, `tmp-${++counter}`);
  await mkdir(scratch);
  await withEnv({ TMPDIR: scratch }, async () => {
    await assert.rejects(
      render(options(hanging, out, { timeoutMs: 1500 })),
      (error) => hasCode('render_timeout')(error) && /seeking took longer than 1500 ms/.test((error as Error).message),
    );
  });
  assert.deepEqual(await filesIn(out), []);
  assert.deepEqual(await processesMentioning(scratch), []);
});

test('a browser that dies at start fails with browser_crashed', async () => {
  const fake = await fakeProgram('dying-browser', 'echo "fake browser gives up" >&2; exit 3');
  await withEnv({ FX_CHROMIUM_HEADLESS_SHELL: fake }, async () => {
    await assert.rejects(
      render(options(join(FIXTURES, 'animated'), outputDir(), { capture: 'begin-frame' })),
      (error) => hasCode('browser_crashed')(error) && /fake browser gives up/.test((error as Error).message),
    );
  });
});

test('a missing browser fails with browser_not_found', async () => {
  await withEnv({ FX_CHROMIUM_HEADLESS_SHELL: join(dir.path, 'no-such-browser') }, async () => {
    await assert.rejects(
      render(options(join(FIXTURES, 'animated'), outputDir(), { capture: 'begin-frame' })),
      hasCode('browser_not_found'),
    );
  });
});

test('an FFmpeg failure fails with ffmpeg_failed, carrying the tail of its stderr', async () => {
  const fake = await fakeProgram('failing-ffmpeg', 'echo "Unknown encoder libfake" >&2; exit 1');
  const out = outputDir();
  await withEnv({ FX_FFMPEG: fake }, async () => {
    await assert.rejects(
      render(options(join(FIXTURES, 'animated'), out)),
      (error) => hasCode('ffmpeg_failed')(error) && /Unknown encoder libfake/.test((error as Error).message),
    );
  });
  assert.deepEqual(await filesIn(out), []);
});

test('a missing FFmpeg fails with ffmpeg_not_found', async () => {
  await withEnv({ FX_FFMPEG: join(dir.path, 'no-such-ffmpeg') }, async () => {
    await assert.rejects(render(options(join(FIXTURES, 'animated'), outputDir())), hasCode('ffmpeg_not_found'));
  });
});

test('missing bundles fail with runtime_bundle_missing before any browser starts', async () => {
  await withEnv({ FX_DIST_DIR: join(dir.path, 'empty-dist') }, async () => {
    await assert.rejects(
      render(options(join(FIXTURES, 'animated'), outputDir())),
      (error) => hasCode('runtime_bundle_missing')(error) && /npm run build/.test((error as Error).message),
    );
  });
});
