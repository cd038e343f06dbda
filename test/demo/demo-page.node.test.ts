// The demo page beyond the main job: each variable edited in the panel changes the preview; the page is accessible
// and fits a phone; the picker switches compositions with the panel still bound, and each composition renders on the
// local service; the batch box refuses a bad row before any request and renders a good 2-row batch into 2 videos.
// Renders run at 2 fps to stay quick.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { Route } from '../../src/wire/constants.js';
import { probe } from '../render/helpers.js';
import { startDemo, untilFrameShows, type Demo, type Preview } from './helpers.js';

const FPS = 2;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Per composition: a text field the panel shows, what it binds in the frame, and the rendered video's shape. */
const COMPOSITIONS = [
  { id: 'launch', field: 'Headline', bound: 'headline', size: [1920, 1080], seconds: 8, audio: false },
  { id: 'media', field: 'Title', bound: 'title', size: [1920, 1080], seconds: 5, audio: true },
  { id: 'story', field: 'Name', bound: 'name', size: [1080, 1920], seconds: 4, audio: false },
] as const;

let demo: Demo;
before(async () => (demo = await startDemo()));
after(() => demo?.stop());

async function open(hash = '', viewport = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  const page = await demo.browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(demo.url + hash);
  await untilReady(page, hash.slice(1) || 'launch');
  return { page, errors };
}

/** Waits until the preview shows composition `id`, ready. */
const untilReady = (page: Page, id: string) =>
  page.waitForFunction(
    (wanted) => {
      const preview = document.querySelector<Preview>('fx-composition')!;
      return preview.ready && preview.src.includes(`/${wanted}/`) && preview.metadata?.id === wanted;
    },
    id,
    { timeout: 30_000 },
  );

/** How the panel edits each variable of the launch composition, one per type it declares. */
const LAUNCH_EDITS: readonly [string, (page: Page) => Promise<void>][] = [
  ['Headline', (page) => page.getByLabel('Headline', { exact: true }).fill('Edited headline')],
  ['Subtitle', (page) => page.getByLabel('Subtitle', { exact: true }).fill('Edited subtitle')],
  ['Accent', (page) => page.getByRole('group', { name: 'Accent' }).getByLabel('Hex code').fill('#ff0000')],
  ['Background', (page) => page.getByRole('group', { name: 'Background' }).getByLabel('Hex code').fill('#335500')],
  ['Text scale', (page) => page.getByLabel('Text scale', { exact: true }).fill('1.4')],
  ['Show badge', (page) => page.getByLabel('Show badge', { exact: true }).uncheck()],
  [
    'Badge',
    async (page) => {
      await page.getByLabel('Show badge', { exact: true }).check();
      await page.getByLabel('Badge', { exact: true }).selectOption('live');
    },
  ],
  ['Logo', (page) => page.getByRole('group', { name: 'Logo' }).getByLabel('Image URL').fill('logo-alt.svg')],
];

/** Fetches a blob: link of the page into a file: its width, height, frame count and whether it has audio. */
async function probeLink(page: Page, href: string, name: string) {
  const bytes = await page.evaluate(async (url) => [...new Uint8Array(await (await fetch(url)).arrayBuffer())], href);
  const file = join(demo.dir, name);
  await writeFile(file, new Uint8Array(bytes));
  const { streams } = await probe(file);
  const video = streams.find((stream) => stream.codec_type === 'video')!;
  return [
    video.width,
    video.height,
    Number(video.nb_read_frames),
    streams.some((stream) => stream.codec_type === 'audio'),
  ];
}

test('the page is axe-clean on a desktop and on a phone, where nothing scrolls sideways', async () => {
  for (const [hash, viewport] of [
    ['#launch', { width: 1280, height: 800 }],
    ['#story', { width: 390, height: 844 }],
  ] as const) {
    const { page, errors } = await open(hash, viewport);
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const { violations } = await (
        window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }
      ).axe.run();
      return violations.map((found) => `${found.id} (${found.nodes.length})`);
    });
    assert.deepEqual(violations, [], `axe at ${viewport.width}px`);
    const [scrollWidth, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    assert.ok(scrollWidth <= width, `the page is ${scrollWidth}px wide in a ${width}px window`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the picker shows each composition with the panel bound to it, and "Render this" renders each', async () => {
  const { page, errors } = await open();
  for (const { id, field, bound, size, seconds, audio } of COMPOSITIONS) {
    await page.getByLabel('Composition').selectOption(id);
    await untilReady(page, id);
    assert.equal(new URL(page.url()).hash, `#${id}`);
    // The panel edits the composition now shown: its field, a live override, the frame showing it.
    const value = `Picked ${id}`;
    await page.getByLabel(field, { exact: true }).first().fill(value);
    await untilFrameShows(page, `[data-var-text="${bound}"]`, value);
    assert.deepEqual(await page.evaluate(() => document.querySelector<Preview>('fx-composition')!.variables), {
      [bound]: value,
    });

    const href = await page.evaluate(
      (fps) =>
        new Promise<string>((resolve, reject) => {
          const button = Object.assign(document.querySelector('fx-render-button')!, { fps });
          // The download link the button offers once rendered (no named functions here: tsx would wrap them).
          button.addEventListener(
            'rendered',
            () =>
              void button.updateComplete.then(() =>
                resolve(button.shadowRoot!.querySelector<HTMLAnchorElement>('[part~="download"]')!.href),
              ),
            { once: true },
          );
          button.addEventListener(
            'error',
            (event) => reject(new Error(JSON.stringify((event as CustomEvent).detail))),
            {
              once: true,
            },
          );
          button.shadowRoot!.querySelector<HTMLButtonElement>('[part~="button"]')!.click();
        }),
      FPS,
    );
    // The project the button uploads carries the media files: the chord is mixed in.
    assert.deepEqual(await probeLink(page, href, `${id}.mp4`), [...size, seconds * FPS, audio]);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the batch box refuses a bad row before any request, then renders a 2-row batch into 2 videos', async () => {
  const { page, errors } = await open('#story');
  const requests: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/v3/')) requests.push(`${request.method()} ${pathname}`);
  });
  const rows = page.getByLabel('Rows');
  const check = page.locator('.batch-check');
  const start = page.locator('button[name="start"]');

  // Row 1 has two errors: listed with the client's codes and the CSV line they are on; the button is off, and a
  // submit anyway sends nothing.
  await rows.fill('name,stat,theme\nGrace,92,sunrise\nAlan,abc,purple\n');
  await assert.doesNotReject(check.getByText('batch_rows_refused').waitFor());
  assert.deepEqual(await check.locator('li').allInnerTexts(), [
    'row 1: type-mismatch variable "stat" is declared as number and expects a finite number, got "abc" (CSV line 3)',
    'row 1: enum-out-of-range variable "theme" must be one of "night", "sunrise", "mint", got "purple" (CSV line 3)',
  ]);
  assert.equal(await rows.getAttribute('aria-invalid'), 'true');
  assert.equal(await start.isDisabled(), true);
  await page.locator('#batch').evaluate((form: HTMLFormElement) => form.requestSubmit());
  await page.waitForTimeout(300);
  assert.deepEqual(await page.locator('.batch-rows li').count(), 0);

  // JSON that does not parse is the same code, with the parser's reason.
  await rows.fill('[{"name": "Grace"');
  await assert.doesNotReject(check.getByText('batch_rows_invalid').waitFor());
  assert.deepEqual(requests, [], 'nothing was sent for refused rows');

  await rows.fill('[{"name": "Grace Hopper", "stat": 92}, {"name": "Alan Turing", "theme": "mint"}]');
  await page.getByLabel('Frames per second').fill(String(FPS));
  await start.getByText('Render 2 videos').click();
  await page.waitForFunction(
    () => {
      const items = [...document.querySelectorAll<HTMLElement>('.batch-rows li')];
      return (
        items.length === 2 && items.every((item) => item.dataset.status === 'done' || item.dataset.status === 'failed')
      );
    },
    null,
    { timeout: 60_000 },
  );
  assert.equal(await check.innerText(), '2 videos rendered');
  const links = await page
    .locator('.batch-rows a[download]')
    .evaluateAll((found) => found.map((link) => (link as HTMLAnchorElement).href));
  assert.equal(links.length, 2);
  for (const [row, href] of links.entries()) {
    assert.deepEqual(await probeLink(page, href, `batch-${row}.mp4`), [1080, 1920, 4 * FPS, false]);
  }
  // One upload for both rows.
  assert.equal(requests.filter((request) => request === `POST ${Route.assets}`).length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every variable edited in the panel changes the preview, live', async () => {
  const { page, errors } = await open();
  await page.evaluate(async () => {
    const preview = document.querySelector<Preview>('fx-composition')!;
    preview.pause();
    await preview.seek(4);
  });
  const preview = page.locator('fx-composition');
  for (const [label, edit] of LAUNCH_EDITS) {
    const before = await preview.screenshot();
    await edit(page);
    const deadline = Date.now() + 5000;
    let changed = false;
    while (!changed && Date.now() < deadline) {
      await page.waitForTimeout(100);
      changed = !(await preview.screenshot()).equals(before);
    }
    assert.ok(changed, `editing "${label}" in the panel left the preview as it was`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
