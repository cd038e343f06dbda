#!/usr/bin/env node
// Regenerates the demo's screenshots in docs/ (`npm run screenshots`; `--no-build` when dist/ is built): starts the
// demo as `npm start` does, on free ports with a throwaway service folder, opens it in the system Chromium at a
// desktop (1280×800) and a phone (390×844) size, pauses each preview on a chosen frame, and writes PNGs reduced to
// a 256-colour palette by FFmpeg (an ordered dither keeps gradients smooth; each file stays under 100 KB).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumFlags, chromiumPath } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SHOTS = [
  { file: 'docs/demo-desktop.png', viewport: { width: 1280, height: 800 }, composition: 'launch', time: 3.5 },
  { file: 'docs/demo-phone.png', viewport: { width: 390, height: 844 }, composition: 'media', time: 2.5 },
];

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const data = mkdtempSync(join(tmpdir(), 'fx-screenshots-'));
const start = spawn('node', ['scripts/start.mjs', ...process.argv.slice(2).filter((arg) => arg === '--no-build')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(await freePort()),
    FX_SERVICE_PORT: String(await freePort()),
    FX_SERVICE_DATA_DIR: data,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let browser;
try {
  const url = await new Promise((resolve, reject) => {
    let output = '';
    start.stdout.on('data', (chunk) => {
      output += chunk;
      const found = /fx demo:\s+(\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    start.once('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumFlags });
  for (const { file, viewport, composition, time } of SHOTS) {
    const page = await browser.newPage({ viewport });
    await page.goto(`${url}#${composition}`);
    await page.waitForFunction((id) => document.querySelector('fx-composition')?.metadata?.id === id, composition);
    await page.evaluate(async (seconds) => {
      const preview = document.querySelector('fx-composition');
      preview.pause();
      await preview.seek(seconds);
    }, time);
    // The controls fade once the pointer has left; the batch box's check has run.
    await page.mouse.move(viewport.width - 1, viewport.height - 1);
    await page.waitForTimeout(3000);
    const raw = join(data, 'raw.png');
    await page.screenshot({ path: raw });
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      raw,
      '-vf',
      'split[a][b];[a]palettegen=max_colors=256[p];[b][p]paletteuse=dither=bayer:bayer_scale=4',
      join(root, file),
    ]);
    console.log(`wrote ${file}`);
    await page.close();
  }
} finally {
  await browser?.close();
  start.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
}
