/** `fx preview` in a real Chromium: the composition plays, values apply, and an edited file reloads it where it was. */
import assert from 'node:assert/strict';
import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { BrowserExecutable, COMMON_FLAGS } from '../../../src/render/chromium.js';
import { waitFor } from '../../service/helpers/harness.js';
import { eventsOf, fx, tempProject } from '../helpers.js';

test('fx preview serves the project; an edit reloads the composition at the same time with the same values', async () => {
  const dir = await tempProject();
  const env = { PATH: process.env.PATH, HOME: dir.path };
  const browser = await chromium.launch({ executablePath: BrowserExecutable.chromium(), args: [...COMMON_FLAGS] });
  try {
    assert.equal((await fx(['init', dir.path], { env })).code, 0);
    let url = '';
    let stop = () => {};
    const serving = fx(['preview', dir.path, '--json'], {
      env,
      onSpawn: (child, output) => {
        stop = () => child.kill('SIGINT');
        void waitFor(() => /"url":"([^"]+)"/.exec(output.stdout())?.[1], 20_000, 'the preview URL').then(
          (found) => (url = found),
        );
      },
    });
    try {
      await waitFor(() => url || undefined, 20_000, 'the preview URL');
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\//, 'loopback, behind a secret path');
      const page = await browser.newPage();
      await page.goto(url);
      const element = page.locator('fx-composition');
      await page.waitForFunction(
        () => (document.querySelector('fx-composition') as unknown as { ready: boolean }).ready,
      );
      await element.evaluate(async (node: HTMLElement & { variables: unknown; seek(t: number): Promise<void> }) => {
        node.variables = { title: 'Kept' };
        await node.seek(1.5);
      });
      const index = join(dir.path, 'index.html');
      await writeFile(index, (await readFile(index, 'utf8')).replace('background: #0f172a', 'background: #102030'));
      // The reload: a new src, then ready again at the same time with the same values.
      await page.waitForFunction(
        () => (document.querySelector('fx-composition') as HTMLElement).getAttribute('src')!.includes('?v='),
        undefined,
        { timeout: 10_000 },
      );
      await page.waitForFunction(
        () => {
          const node = document.querySelector('fx-composition') as unknown as { ready: boolean; currentTime: number };
          return node.ready && Math.abs(node.currentTime - 1.5) < 0.05;
        },
        undefined,
        { timeout: 10_000 },
      );
      assert.deepEqual(await element.evaluate((node: HTMLElement & { variables: unknown }) => node.variables), {
        title: 'Kept',
      });
    } finally {
      stop();
      const run = await serving;
      assert.equal(run.code, 0, run.stderr);
      assert.ok(eventsOf(run, 'info').some((event) => event.message === 'changed'));
    }
  } finally {
    await browser.close();
    await dir.cleanup();
  }
});
