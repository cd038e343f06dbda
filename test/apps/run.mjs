#!/usr/bin/env node
// `npm run test:apps`: packs the browser package (dist/ must be built) and installs it into real apps generated from
// the templates beside this file — Vite vanilla-TS, Vite + React 19, Vite + Vue 3, webpack 5 — then type-checks
// each, and checks it in Chromium (checks.mjs) in development and production builds. Installs are cached under
// node_modules/.cache/fx-apps: an app's dependencies are installed again only when its lockfile changed.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';
import { checkApp } from './lib/checks.mjs';
import { freePort, proxyTo, serveStatic } from './lib/servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const cache = join(root, 'node_modules', '.cache', 'fx-apps');
const npmCache = join(cache, 'npm');
const composition = join(root, 'demo', 'compositions', 'launch');

const vite = (port) => ({ dev: ['npx', 'vite', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], build: ['npx', 'vite', 'build'], out: 'dist' });
const APPS = {
  vanilla: { typecheck: ['npx', 'tsc', '-p', '.'], vite },
  react: { typecheck: ['npx', 'tsc', '-p', '.'], vite },
  vue: { typecheck: ['npx', 'vue-tsc', '-p', '.'], vite },
  webpack: { typecheck: ['npx', 'tsc', '-p', '.'], webpack: true },
};

const log = (message) => console.error(`[apps] ${message}`);

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`"${command} ${args.join(' ')}" failed (${result.status}):\n${result.stdout}${result.stderr}`.slice(0, 4000));
  return result.stdout;
}

function pack() {
  mkdirSync(cache, { recursive: true });
  for (const file of readdirSync(cache)) if (file.endsWith('.tgz')) rmSync(join(cache, file));
  const name = run('npm', ['pack', '--silent', '--pack-destination', cache], root).trim().split('\n').at(-1);
  return join(cache, name);
}

/** The app's work folder: the template's files, the composition, its dependencies (cached) and the packed SDK. */
function prepare(name, tarball) {
  const template = join(here, name);
  const work = join(cache, name);
  mkdirSync(work, { recursive: true });
  for (const entry of readdirSync(template)) cpSync(join(template, entry), join(work, entry), { recursive: true });
  cpSync(composition, join(work, 'public', 'launch'), { recursive: true });
  const lock = readFileSync(join(template, 'package-lock.json'));
  const stamp = join(work, 'node_modules', '.fx-lock-hash');
  const hash = createHash('sha256').update(lock).digest('hex');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
    log(`${name}: npm ci`);
    run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--cache', npmCache], work);
    writeFileSync(stamp, hash);
  }
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--cache', npmCache, tarball], work);
  return work;
}

/** Starts `command` in `cwd`, resolves once `port` answers; returns a stop function. */
async function startDevServer(command, cwd, port) {
  const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
    if (up) return () => process.kill(-child.pid, 'SIGTERM');
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.kill(-child.pid, 'SIGTERM');
  throw new Error(`the dev server did not start:\n${output.slice(0, 2000)}`);
}

async function checkMode(browser, name, mode, work) {
  const app = APPS[name];
  if (app.webpack) {
    rmSync(join(work, 'dist'), { recursive: true, force: true });
    run('npx', ['webpack', '--mode', mode === 'dev' ? 'development' : 'production'], work);
    cpSync(join(work, 'index.html'), join(work, 'dist', 'index.html'));
    cpSync(join(work, 'public'), join(work, 'dist'), { recursive: true });
    return serveAndCheck(browser, join(work, 'dist'));
  }
  if (mode === 'prod') {
    run(...splitCommand(app.vite(0).build), work);
    return serveAndCheck(browser, join(work, app.vite(0).out));
  }
  const port = await freePort();
  const stop = await startDevServer(app.vite(port).dev, work, port);
  try {
    const proxy = await proxyTo(port);
    try {
      return await checkApp(browser, `http://127.0.0.1:${proxy.port}/`, proxy.failures);
    } finally {
      await proxy.close();
    }
  } finally {
    stop();
  }
}

const splitCommand = (command) => [command[0], command.slice(1)];

async function serveAndCheck(browser, folder) {
  const server = await serveStatic(folder);
  try {
    return await checkApp(browser, `http://127.0.0.1:${server.port}/`, server.failures);
  } finally {
    await server.close();
  }
}

const only = process.argv.slice(2);
const names = only.length > 0 ? only : Object.keys(APPS);
const started = Date.now();
const counts = { passed: 0, failed: 0 };
const report = (name, outcome, detail = '') => {
  const mark = { passed: 'ok  ', failed: 'FAIL' }[outcome];
  counts[outcome]++;
  console.log(`${mark} ${name}${detail ? ` — ${detail}` : ''}`);
};

log('packing fx-sdk');
const tarball = pack();
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumFlags });
try {
  for (const name of names) {
    const appStarted = Date.now();
    let work;
    try {
      work = prepare(name, tarball);
    } catch (error) {
      report(`${name}: install`, 'failed', error.message);
      continue;
    }
    try {
      run(...splitCommand(APPS[name].typecheck), work);
      report(`${name}: tsc`, 'passed');
    } catch (error) {
      report(`${name}: tsc`, 'failed', error.message);
    }
    for (const mode of ['dev', 'prod']) {
      let results;
      try {
        results = await checkMode(browser, name, mode, work);
      } catch (error) {
        report(`${name} ${mode}: build and serve`, 'failed', error.message);
        continue;
      }
      for (const [check, outcome] of Object.entries(results)) {
        const label = `${name} ${mode}: ${check}`;
        if (outcome === true) report(label, 'passed');
        else report(label, 'failed', outcome);
      }
    }
    log(`${name}: ${((Date.now() - appStarted) / 1000).toFixed(1)} s`);
  }
} finally {
  await browser.close();
}
log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`apps: ${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed > 0 ? 1 : 0);
