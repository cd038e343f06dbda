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
import { extractFrame, FIXTURES, psnr, rowAt, tempDir } from './helpers.js';

const VARIABLES = { accent: '#2080ff', title: 'Preview = render' };
const PROJECTS = ['animated', 'timeline-transparent', 'fitted'] as const;
type Project = (typeof PROJECTS)[number];
let dir: { path: string; cleanup: () => Promise<void> };
const servers = new Map<Project, ProjectServer>();
let browser: Browser;

before(async () => {
  dir = await tempDir();
  for (const project of PROJECTS) servers.set(project, await startProjectServer(join(FIXTURES, project), bundleDir()));
  browser = await chromium.launch({ executablePath: BrowserExecutable.chromium(), args: [...COMMON_FLAGS] });
});

after(async () => {
  await browser?.close();
  for (const server of servers.values()) await server.close();
  await dir.cleanup();
});

/** A page with the element, exactly as a user embeds it: the classic bundle and `<fx-composition src variables>`. */
function previewPage(server: ProjectServer, variables: Record<string, unknown>): string {
  const attribute = JSON.stringify(variables).replaceAll("'", '&#39;');
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <style>body { margin: 0; } fx-composition { width: 320px; }</style>
    <script src="${server.url(ServerPath.compiler)}"></script></head>
    <body><fx-composition src="${server.url('index.html')}" variables='${attribute}'></fx-composition></body></html>`;
}

/** Screenshots of the element after each `await seek(t)` of `times`, in order, in one page (`<dir>/preview-<t>.png`). */
async function previewFrames(
  project: Project,
  variables: Record<string, unknown>,
  times: readonly number[],
): Promise<string[]> {
  const server = servers.get(project)!;
  const page = await browser.newPage({ viewport: { width: 320, height: 180 }, deviceScaleFactor: 1 });
  try {
    await page.goto(server.addDocument(`preview-${project}`, previewPage(server, variables)));
    await page.evaluate(async () => {
      const element = document.querySelector('fx-composition') as HTMLElement & { ready: boolean };
      if (!element.ready) await new Promise((resolve) => element.addEventListener('ready', resolve, { once: true }));
    });
    const files: string[] = [];
    for (const time of times) {
      await page.evaluate(
        (seconds) =>
          (document.querySelector('fx-composition') as HTMLElement & { seek(seconds: number): Promise<number> }).seek(
            seconds,
          ),
        time,
      );
      const file = join(dir.path, `preview-${project}-${time}.png`);
      await writeFile(file, await page.locator('fx-composition').screenshot());
      files.push(file);
    }
    return files;
  } finally {
    await page.close();
  }
}

for (const [format, seconds] of [
  ['mp4', 1.5],
  ['mov', 0.5],
] as const) {
  test(`the ${format} frame at ${seconds} s matches the preview at ${seconds} s (PSNR ≥ 35 dB)`, async () => {
    const result = await render({
      projectDir: join(FIXTURES, 'animated'),
      composition: 'index.html',
      fps: 30,
      quality: 'high',
      format,
      variables: VARIABLES,
      outputPath: join(dir.path, `render.${format}`),
    });
    const rendered = join(dir.path, `rendered-${format}.png`);
    await extractFrame(result.videoPath, Math.round(seconds * 30), rendered);
    const [preview] = await previewFrames('animated', VARIABLES, [seconds]);
    const score = await psnr(rendered, preview!);
    assert.ok(score >= 35, `PSNR ${score.toFixed(2)} dB between render and preview`);
    // Not trivially equal: another time of the same composition must score clearly lower.
    const other = join(dir.path, `other-${format}.png`);
    await extractFrame(result.videoPath, Math.round(seconds * 30) + 6, other);
    assert.ok((await psnr(other, preview!)) < score - 5, 'a frame 0.2 s later differs from the preview');
  });
}

// A transparent page (the backdrop rule: black on both sides) driven by a GSAP-style timeline, sought back and forth
// in one preview: each screenshot right after `await seek(t)` must be the render's frame at t, not an earlier one.
test('a transparent, timeline-driven composition: mp4 frames at five times match the preview after each seek', async () => {
  const times = [2.4, 0.6, 1.8, 0.3, 1.2];
  const result = await render({
    projectDir: join(FIXTURES, 'timeline-transparent'),
    composition: 'index.html',
    fps: 30,
    quality: 'standard',
    format: 'mp4',
    outputPath: join(dir.path, 'timeline.mp4'),
  });
  const previews = await previewFrames('timeline-transparent', {}, times);
  for (const [index, time] of times.entries()) {
    const rendered = join(dir.path, `timeline-${time}.png`);
    await extractFrame(result.videoPath, Math.round(time * 30), rendered);
    const score = await psnr(rendered, previews[index]!);
    assert.ok(score >= 35, `at ${time} s: PSNR ${score.toFixed(2)} dB between render and preview`);
    // The previous seek's frame differs clearly: a preview left there would fail above.
    if (index > 0)
      assert.ok(
        (await psnr(rendered, previews[index - 1]!)) < score - 5,
        `the frame at ${time} s differs from the one at ${times[index - 1]} s`,
      );
  }
});

// data-var-fit runs in the same runtime on both sides: the render shrinks the title exactly as the preview does.
test('a data-var-fit title: the render shrinks it into its box, as the preview shows it', async () => {
  const variables = { title: 'W'.repeat(30) };
  const result = await render({
    projectDir: join(FIXTURES, 'fitted'),
    composition: 'index.html',
    fps: 30,
    quality: 'high',
    format: 'mp4',
    variables,
    outputPath: join(dir.path, 'fitted.mp4'),
  });
  const rendered = join(dir.path, 'fitted.png');
  await extractFrame(result.videoPath, 15, rendered);
  const [preview] = await previewFrames('fitted', variables, [0.5]);
  const score = await psnr(rendered, preview!);
  assert.ok(score >= 35, `PSNR ${score.toFixed(2)} dB between render and preview`);
  // The box is x 10–210 from y 60; the fitted text (about 7 px tall) shows in it and nothing spills past it.
  const rows = await Promise.all([61, 63, 65, 67].map(async (y) => (await rowAt(rendered, y))[0]!));
  assert.ok(Math.max(...rows.flatMap((row) => row.slice(12, 208))) > 128, 'the fitted title shows inside its box');
  assert.ok(Math.max(...rows.flatMap((row) => row.slice(216))) < 40, 'nothing spills past the box');
});
