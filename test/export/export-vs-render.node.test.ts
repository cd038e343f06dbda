// Proof of issue 33 §4: the in-browser export equals the server render of the same compiled document. Each demo
// composition is exported by a page that loads only the player bundle (`el.exportVideo()`) — in Chromium with each
// rasteriser (HTML-in-Canvas needs its CanvasDrawElement flag) as mp4, and as webm with alpha; in Firefox ESR (over
// WebDriver BiDi) with foreignObject, as mp4 and webm — and rendered by the renderer in the same format; five frames
// of each are compared (PSNR, alpha included for webm), the frame counts are fps × duration, and the sound is as
// long as the server's. Firefox paints its own glyphs, so its mp4 is also held to Firefox's own preview of the
// same frames (the player at the composition's size, after `await seek(t)`): export = preview in that browser.
import assert from 'node:assert/strict';
import { cp, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { firefoxPath } from '../../scripts/firefox.mjs';
import { ENCODER_FILE } from '../../src/export/encoder-file.js';
import { bundleDir } from '../../src/render/bundles.js';
import { BrowserExecutable, COMMON_FLAGS } from '../../src/render/chromium.js';
import { render } from '../../src/render/index.js';
import { startProjectServer, type ProjectServer } from '../../src/render/project-server.js';
import { ffmpeg, probe, psnr, tempDir } from '../render/helpers.js';

const FPS = 15;
const FRACTIONS = [0.1, 0.3, 0.5, 0.7, 0.9];
const MATCH_DB = 35;
/**
 * Firefox exports what Firefox paints: the same layout, its own glyph rasterisation and sub-pixel text positions,
 * against a render Chromium painted (22–30 dB on the demo's large text). Bounded, not equal; the figures are logged.
 */
const OTHER_ENGINE_DB = 20;
const DEMO = new URL('../../demo/compositions/', import.meta.url).pathname;
const COMPOSITIONS = (process.env.FX_PROOF_ONLY?.split(',') ?? ['launch', 'story', 'media']) as readonly (
  'launch' | 'story' | 'media'
)[];
/**
 * The page of a user who embeds the player only: the classic player bundle and the export encoder it loads from
 * beside itself, served beside the runtime.
 */
const PLAYER = 'fx-player.iife.js';
const PLAYER_FILES = [PLAYER, ENCODER_FILE];
type Format = 'mp4' | 'webm';
/** What a test needs of a page, from Playwright (Chromium) or puppeteer (Firefox over WebDriver BiDi). */
interface ProofPage {
  goto(url: string): Promise<unknown>;
  evaluate<A, R>(fn: (arg: A) => Promise<R>, arg: A): Promise<R>;
  /** The viewport's pixels in `clip` as a PNG. */
  screenshot(clip: { x: number; y: number; width: number; height: number }): Promise<Uint8Array>;
  close(): Promise<void>;
  errors: string[];
}
interface ProofBrowser {
  newPage(viewport?: { width: number; height: number }): Promise<ProofPage>;
  close(): Promise<void>;
}

const launchChromium = async (flags: readonly string[]): Promise<ProofBrowser> => {
  const browser = await chromium.launch({
    executablePath: BrowserExecutable.chromium(),
    args: [...COMMON_FLAGS, ...flags],
  });
  return {
    async newPage(viewport = { width: 640, height: 480 }) {
      const page = await browser.newPage({ viewport });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      return {
        goto: (url) => page.goto(url),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg as never) as never,
        screenshot: (clip) => page.screenshot({ clip }),
        close: () => page.close(),
        errors,
      };
    },
    close: () => browser.close(),
  };
};

const launchFirefox = async (): Promise<ProofBrowser> => {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(), headless: true });
  return {
    async newPage(viewport = { width: 640, height: 480 }) {
      const page = await browser.newPage();
      await page.setViewport(viewport);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      return {
        goto: (url) => page.goto(url),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
        screenshot: (clip) => page.screenshot({ clip, type: 'png' }),
        close: () => page.close(),
        errors,
      };
    },
    close: () => browser.close(),
  };
};

/** Each run: the browser, its rasteriser, the format. Firefox has no HTML-in-Canvas. */
const RUNS = [
  { browser: 'Chromium', rasteriser: 'foreign-object', format: 'mp4', launch: () => launchChromium([]) },
  {
    browser: 'Chromium',
    rasteriser: 'html-in-canvas',
    format: 'mp4',
    launch: () => launchChromium(['--enable-blink-features=CanvasDrawElement']),
  },
  { browser: 'Chromium', rasteriser: 'foreign-object', format: 'webm', launch: () => launchChromium([]) },
  { browser: 'Firefox', rasteriser: 'foreign-object', format: 'mp4', launch: launchFirefox },
  { browser: 'Firefox', rasteriser: 'foreign-object', format: 'webm', launch: launchFirefox },
] as const;

const execFileAsync = promisify(execFile);

let dir: { path: string; cleanup: () => Promise<void> };
const servers = new Map<string, ProjectServer>();
const rendered = new Map<string, string>();

before(async () => {
  dir = await tempDir('fx-export-proof-');
  for (const name of COMPOSITIONS) {
    const project = join(dir.path, name);
    await cp(join(DEMO, name), project, { recursive: true });
    for (const file of PLAYER_FILES) await cp(join(bundleDir(), file), join(project, file));
    servers.set(name, await startProjectServer(project, bundleDir()));
  }
});

after(async () => {
  for (const server of servers.values()) await server.close();
  if (!process.env.FX_KEEP) await dir?.cleanup();
  else console.error('KEPT', dir.path);
});

/** The server render of a demo composition (once per format) at high quality. */
async function serverRender(name: string, format: Format): Promise<string> {
  const known = rendered.get(`${name}.${format}`);
  if (known) return known;
  const result = await render({
    projectDir: join(dir.path, name),
    composition: 'index.html',
    fps: FPS,
    quality: 'high',
    format,
    outputPath: join(dir.path, `${name}-render.${format}`),
  });
  rendered.set(`${name}.${format}`, result.videoPath);
  return result.videoPath;
}

/** Frame `index` of `file` as a PNG; a webm's through libvpx, which decodes its alpha plane (FFmpeg's own does not). */
async function extractFrame(file: string, index: number, png: string): Promise<void> {
  const decoder = file.endsWith('.webm') ? ['-c:v', 'libvpx-vp9'] : [];
  await ffmpeg([...decoder, '-i', file, '-vf', `select=eq(n\\,${index})`, '-frames:v', '1', png]);
}

/** The sound's length in seconds, decoded (a WebM's audio stream carries no duration of its own). */
async function soundSeconds(file: string): Promise<number> {
  const { stderr } = await execFileAsync('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-i',
    file,
    '-map',
    '0:a',
    '-f',
    'null',
    '-',
  ]);
  const times = [...stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)];
  const [, hours, minutes, seconds] = times.at(-1) ?? [];
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** Exports `name` in `browser` and writes the file; resolves with its path and what exportVideo answered. */
async function browserExport(browser: ProofBrowser, name: string, rasteriser: string, format: Format, label: string) {
  const server = servers.get(name)!;
  const page = await browser.newPage();
  const { errors } = page;
  try {
    const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
      <script src="${server.url(PLAYER)}"></script></head>
      <body><fx-composition src="${server.url('index.html')}" style="display:block;width:480px"></fx-composition></body></html>`;
    await page.goto(server.addDocument(`export-${name}`, html));
    const answer = await page.evaluate(
      async ({ rasteriser, format, fps }) => {
        const element = document.querySelector('fx-composition')!;
        if (!element.ready) await new Promise((resolve) => element.addEventListener('ready', resolve, { once: true }));
        const started = performance.now();
        const { video, ...result } = await element.exportVideo({
          format,
          fps,
          quality: 'high',
          rasteriser: rasteriser as 'auto',
        });
        if (!video) throw new Error('no video');
        const bytes = new Uint8Array(await video.arrayBuffer());
        let binary = '';
        for (let index = 0; index < bytes.length; index += 0x8000)
          binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
        return { result, base64: btoa(binary), ms: performance.now() - started };
      },
      { rasteriser, format, fps: FPS },
    );
    const file = join(dir.path, `${name}-${label}.${format}`);
    await writeFile(file, Buffer.from(answer.base64, 'base64'));
    assert.deepEqual(errors, []);
    return { file, result: answer.result, ms: answer.ms };
  } finally {
    await page.close();
  }
}

/**
 * What `browser` itself shows of `name` after `await seek(t)` at each of `times`: the player at the composition's
 * own size on a page of that size (device scale 1), its pixels as PNGs.
 */
async function previewFrames(
  browser: ProofBrowser,
  name: string,
  size: { width: number; height: number },
  times: readonly number[],
  label: string,
): Promise<string[]> {
  const server = servers.get(name)!;
  const page = await browser.newPage(size);
  try {
    const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
      <style>body { margin: 0 } fx-composition { display: block; width: ${size.width}px; height: ${size.height}px }</style>
      <script src="${server.url(PLAYER)}"></script></head>
      <body><fx-composition src="${server.url('index.html')}" muted></fx-composition></body></html>`;
    await page.goto(server.addDocument(`preview-${name}`, html));
    const files = [];
    for (const time of times) {
      await page.evaluate(async (at) => {
        const element = document.querySelector('fx-composition')!;
        if (!element.ready) await new Promise((resolve) => element.addEventListener('ready', resolve, { once: true }));
        await element.seek(at);
      }, time);
      const file = join(dir.path, `${name}-${label}-preview-${Math.round(time * FPS)}.png`);
      await writeFile(file, await page.screenshot({ x: 0, y: 0, ...size }));
      files.push(file);
    }
    assert.deepEqual(page.errors, []);
    return files;
  } finally {
    await page.close();
  }
}

for (const { browser: browserName, rasteriser, format, launch } of RUNS) {
  const label = `${browserName.toLowerCase()}-${rasteriser}`;
  describe(
    `${format} exported in ${browserName} with ${rasteriser} equals the server render`,
    { timeout: 600_000 },
    () => {
      let browser: ProofBrowser;
      before(async () => {
        browser = await launch();
      });
      after(() => browser?.close());

      for (const name of COMPOSITIONS) {
        const previewClause =
          browserName !== 'Chromium' && format === 'mp4' ? `, its own preview at ≥ ${MATCH_DB} dB` : '';
        test(`${name}: frames, five times at ≥ ${browserName === 'Chromium' ? MATCH_DB : OTHER_ENGINE_DB} dB${previewClause}, sound`, async () => {
          const exported = await browserExport(browser, name, rasteriser, format, label);
          assert.equal(exported.result.rasteriser, rasteriser);
          assert.equal(exported.result.encodedIn, 'frame', 'encoded in the export frame, muxed by the page');
          const reference = await serverRender(name, format);
          const [mine, theirs] = await Promise.all([probe(exported.file), probe(reference)]);
          const video = (probed: typeof mine) => probed.streams.find((stream) => stream.codec_type === 'video')!;
          const frames = Number(video(theirs).nb_read_frames);
          assert.equal(Number(video(mine).nb_read_frames), frames, 'frame count = fps × duration, as the render');
          assert.equal(exported.result.frames, frames);
          assert.equal(video(mine).width, video(theirs).width);
          if (format === 'webm')
            assert.deepEqual(
              [
                video(mine).tags?.alpha_mode ?? video(mine).tags?.ALPHA_MODE,
                video(theirs).tags?.alpha_mode ?? video(theirs).tags?.ALPHA_MODE,
              ],
              ['1', '1'],
              'both keep an alpha plane',
            );
          const sound = (probed: typeof mine) => probed.streams.find((stream) => stream.codec_type === 'audio');
          assert.equal(Boolean(sound(mine)), Boolean(sound(theirs)), 'a sound track where the render has one');
          if (sound(theirs)) {
            const [mySound, theirSound] = await Promise.all([soundSeconds(exported.file), soundSeconds(reference)]);
            assert.ok(
              Math.abs(mySound - theirSound) <= 1 / FPS,
              `sound ${mySound} s against the render's ${theirSound} s`,
            );
          }
          const scores: number[] = [];
          const indexes = FRACTIONS.map((fraction) => Math.min(frames - 1, Math.round(fraction * frames)));
          for (const index of indexes) {
            const [a, b] = [
              join(dir.path, `${name}-${label}-${format}-${index}.png`),
              join(dir.path, `${name}-r-${format}-${index}.png`),
            ];
            await extractFrame(exported.file, index, a);
            await extractFrame(reference, index, b);
            scores.push(await psnr(a, b));
          }
          console.error(`${label} ${format} ${name}: ${scores.map((score) => score.toFixed(1)).join(', ')} dB`);
          // Another engine's export against its own preview: what that browser paints, equal at every time.
          if (browserName !== 'Chromium' && format === 'mp4') {
            const size = { width: exported.result.width, height: exported.result.height };
            const previews = await previewFrames(
              browser,
              name,
              size,
              indexes.map((index) => index / FPS),
              label,
            );
            const againstPreview: number[] = [];
            for (const [k, index] of indexes.entries())
              againstPreview.push(await psnr(join(dir.path, `${name}-${label}-${format}-${index}.png`), previews[k]!));
            console.error(
              `${label} ${name} against its preview: ${againstPreview.map((s) => s.toFixed(1)).join(', ')} dB`,
            );
            assert.deepEqual(
              againstPreview.filter((score) => score < MATCH_DB),
              [],
              `against ${browserName}'s preview at ${FRACTIONS.join(', ')}: ${againstPreview.map((s) => s.toFixed(1)).join(', ')} dB`,
            );
          }
          const low = scores.filter((score) => score < (browserName === 'Chromium' ? MATCH_DB : OTHER_ENGINE_DB));
          assert.deepEqual(
            low,
            [],
            `PSNR at ${FRACTIONS.join(', ')}: ${scores.map((s) => s.toFixed(1)).join(', ')} dB`,
          );
        });
      }
    },
  );
}
