// Differential test: the rendered frame matches what the <fx-composition> preview shows for the same time and the
// same variables, in the full Chromium a user's page runs in (PSNR over FFmpeg's psnr filter).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { bundleDir } from '../../src/render/bundles.js';
import { BrowserExecutable, COMMON_FLAGS } from '../../src/render/chromium.js';
import { render } from '../../src/render/index.js';
import { ServerPath, startProjectServer, type ProjectServer } from '../../src/render/project-server.js';
import { extractFrame, FIXTURES, psnr, tempDir } from './helpers.js';

const PROJECT = join(FIXTURES, 'animated');
const VARIABLES = { accent: '#2080ff', title: 'Preview = render' };
let dir: { path: string; cleanup: () => Promise<void> };
let server: ProjectServer;
let browser: Browser;

before(async () => {
  dir = await tempDir();
  server = await startProjectServer(PROJECT, bundleDir());
  browser = await chromium.launch({ executablePath: BrowserExecutable.chromium(), args: [...COMMON_FLAGS] });
});

after(async () => {
  await browser?.close();
  await server?.close();
  await dir.cleanup();
});

/** A page with the element, exactly as a user embeds it: the classic bundle and `<fx-composition src variables>`. */
function previewPage(): string {
  const variables = JSON.stringify(VARIABLES).replaceAll("'", '&#39;');
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <style>body { margin: 0; } fx-composition { width: 320px; }</style>
    <script src="${server.url(ServerPath.compiler)}"></script></head>
    <body><fx-composition src="${server.url('index.html')}" variables='${variables}'></fx-composition></body></html>`;
}

async function previewFrame(seconds: number, png: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 320, height: 180 }, deviceScaleFactor: 1 });
  try {
    await page.goto(server.addDocument('preview', previewPage()));
    await page.evaluate(async (time) => {
      const element = document.querySelector('fx-composition') as HTMLElement & { ready: boolean; seek(seconds: number): Promise<number> };
      if (!element.ready) await new Promise((resolve) => element.addEventListener('ready', resolve, { once: true }));
      await element.seek(time);
    }, seconds);
    await writeFile(png, await page.locator('fx-composition').screenshot());
  } finally {
    await page.close();
  }
}

for (const [format, seconds] of [['mp4', 1.5], ['mov', 0.5]] as const) {
  test(`the ${format} frame at ${seconds} s matches the preview at ${seconds} s (PSNR ≥ 35 dB)`, async () => {
    const result = await render({ projectDir: PROJECT, composition: 'index.html', fps: 30, quality: 'high', format, variables: VARIABLES, outputPath: join(dir.path, `render.${format}`) });
    const rendered = join(dir.path, `rendered-${format}.png`);
    const preview = join(dir.path, `preview-${format}.png`);
    await extractFrame(result.videoPath, Math.round(seconds * 30), rendered);
    await previewFrame(seconds, preview);
    const score = await psnr(rendered, preview);
    assert.ok(score >= 35, `PSNR ${score.toFixed(2)} dB between render and preview`);
    // Not trivially equal: another time of the same composition must score clearly lower.
    const other = join(dir.path, `other-${format}.png`);
    await extractFrame(result.videoPath, Math.round(seconds * 30) + 6, other);
    assert.ok((await psnr(other, preview)) < score - 5, 'a frame 0.2 s later differs from the preview');
  });
}
