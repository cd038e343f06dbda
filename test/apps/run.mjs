#!/usr/bin/env node
// `npm run test:apps`: packs the browser package (dist/ must be built) and installs it into real apps generated from
// the templates beside this file — Vite vanilla-TS, Vite + React 19, Vite + Vue 3, Vite + Svelte 5, webpack 5,
// Rollup, esbuild, a plain page using the package's files from a CDN-like folder, and the server-rendered Next.js,
// SvelteKit, Nuxt and Astro apps served by their own servers — then type-checks each, and
// checks it in Chromium (checks.mjs) in each of its modes, the plain page and the Vite vanilla and React apps in
// WebKitGTK too. Installs are cached under node_modules/.cache/fx-apps: an
// app's dependencies are installed again only when its lockfile changed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkApp } from './lib/checks.mjs';
import { chromiumBrowser, webKitBrowser } from './lib/drivers.mjs';
import { freePort, proxyTo, serveStatic } from './lib/servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const cache = join(root, 'node_modules', '.cache', 'fx-apps');
const npmCache = join(cache, 'npm');
const composition = join(root, 'demo', 'compositions', 'launch');

// How an app is served in one mode: a dev server (Vite's), a build whose output folder is served (`out`; with
// `copyPage`, index.html and public/ are copied next to the bundle, as a bundler without an HTML step needs), a
// production build served by the framework's own server (`serve`, given PORT and HOST; `out` is removed before the
// build so an old one cannot stand in), or a page that loads the package from a CDN-like origin (`cdnPage`, no
// install). `pages` lists the paths checked (`/` if absent). An app's `publicDir` is where its framework serves
// static files from (public/ if absent); `bound` says its pages have the bound `#headline` input and the
// `#ready-seen` and `#error-seen` outputs that the SSR checks read; `webkit` that its pages are checked in WebKitGTK
// too, after Chromium; `exports` that its pages also export a video in Chromium (the encoder as the app's bundler
// split it off, or the classic script's file beside it).
const tsc = ['npx', 'tsc', '-p', '.'];
const viteModes = { dev: { devServer: true }, prod: { build: ['npx', 'vite', 'build'], out: 'dist' } };
const bundled = (build) => ({ build, out: 'dist', copyPage: true });
const ssr = (build, out, serve, pages) => ({ prod: { build, out, serve, pages } });
const APPS = {
  vanilla: { typecheck: tsc, modes: viteModes, webkit: true, exports: true },
  react: { typecheck: tsc, modes: viteModes, webkit: true },
  vue: { typecheck: ['npx', 'vue-tsc', '-p', '.'], modes: viteModes },
  // svelte-check drops every diagnostic of a file whose path has /node_modules/ in it, as the work folder's has:
  // it checks the app through a link from outside.
  svelte: {
    typecheck: (work) => ['npx', 'svelte-check', '--fail-on-warnings', '--workspace', linkOutsideNodeModules(work)],
    modes: viteModes,
  },
  webpack: {
    exports: true,
    typecheck: tsc,
    modes: {
      dev: bundled(['npx', 'webpack', '--mode', 'development']),
      prod: bundled(['npx', 'webpack', '--mode', 'production']),
    },
  },
  // Rollup and esbuild always tree-shake, so one (production) build each shows whether `import 'fx-sdk'` survives.
  rollup: { typecheck: tsc, modes: { prod: bundled(['npx', 'rollup', '-c']) } },
  esbuild: {
    typecheck: tsc,
    modes: {
      prod: bundled([
        'npx',
        'esbuild',
        'src/main.ts',
        '--bundle',
        '--format=esm',
        '--minify',
        '--outfile=dist/main.js',
      ]),
    },
  },
  // The package's files as a CDN serves them (another origin, CORS): fx-sdk.standalone.js from a plain
  // `<script type="module">`, and fx.iife.js from a `<script src>`.
  static: {
    modes: { module: { cdnPage: 'index.html' }, classic: { cdnPage: 'classic.html' } },
    webkit: true,
    exports: true,
  },
  // Server-rendered apps: a production build with SSR on, served by the framework's own server.
  next: { bound: true, modes: ssr(['npx', 'next', 'build'], '.next', ['npx', 'next', 'start', '-H', '127.0.0.1']) },
  sveltekit: {
    bound: true,
    publicDir: 'static',
    typecheck: (work) => [
      ['npx', 'svelte-kit', 'sync'],
      ['npx', 'svelte-check', '--fail-on-warnings', '--workspace', linkOutsideNodeModules(work)],
    ],
    modes: ssr(['npx', 'vite', 'build'], 'build', ['node', 'build']),
  },
  nuxt: {
    bound: true,
    typecheck: [['npx', 'nuxi', 'typecheck']],
    modes: ssr(['npx', 'nuxt', 'build'], '.output', ['node', '.output/server/index.mjs']),
  },
  astro: {
    bound: true,
    typecheck: [['npx', 'astro', 'check']],
    modes: ssr(['npx', 'astro', 'build'], 'dist', ['node', 'dist/server/entry.mjs'], ['/', '/plain']),
  },
};

/** A link to `folder` from the system's temporary folder, for tools that skip paths under node_modules. */
function linkOutsideNodeModules(folder) {
  const link = join(tmpdir(), `fx-apps-${folder.split(/[\\/]/).at(-1)}`);
  rmSync(link, { force: true });
  symlinkSync(folder, link);
  return link;
}

const log = (message) => console.error(`[apps] ${message}`);
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
// The frameworks' telemetry would try to reach the network (the machines here reach only the registry); without
// colours, a failed build's output reads plainly in the report.
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  NO_COLOR: '1',
  NUXT_TELEMETRY_DISABLED: '1',
  ASTRO_TELEMETRY_DISABLED: '1',
};

/** Runs a command to its end (without blocking the other app's checks); resolves its output, rejects on failure. */
function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      if (status === 0) resolve(stdout);
      else reject(new Error(`"${command} ${args.join(' ')}" failed (${status}):\n${stdout}${stderr}`.slice(0, 4000)));
    });
  });
}

async function pack() {
  mkdirSync(cache, { recursive: true });
  for (const file of readdirSync(cache)) if (file.endsWith('.tgz')) rmSync(join(cache, file));
  const name = (await run('npm', ['pack', '--silent', '--pack-destination', cache], root)).trim().split('\n').at(-1);
  return join(cache, name);
}

/** The app's work folder: the template's files, the composition, its dependencies (cached) and the packed SDK. */
async function prepare(name, tarball) {
  const template = join(here, name);
  const work = join(cache, name);
  mkdirSync(work, { recursive: true });
  for (const entry of readdirSync(template)) cpSync(join(template, entry), join(work, entry), { recursive: true });
  cpSync(composition, join(work, APPS[name].publicDir ?? 'public', 'launch'), { recursive: true });
  if (!existsSync(join(template, 'package-lock.json'))) {
    // No dependencies: the package's files themselves, as a CDN holds them (package/ is the tarball's root).
    rmSync(join(work, 'cdn'), { recursive: true, force: true });
    mkdirSync(join(work, 'cdn'));
    await run('tar', ['-xzf', tarball, '-C', join(work, 'cdn'), '--strip-components=1'], work);
    return work;
  }
  const lock = readFileSync(join(template, 'package-lock.json'));
  const stamp = join(work, 'node_modules', '.fx-lock-hash');
  const hash = createHash('sha256').update(lock).digest('hex');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
    log(`${name}: npm ci`);
    await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--cache', npmCache], work);
    writeFileSync(stamp, hash);
  }
  await run(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--cache', npmCache, tarball],
    work,
  );
  return work;
}

/** Starts `command` in `cwd` (PORT and HOST in its environment), resolves once `port` answers; returns a stop function. */
async function startDevServer(command, cwd, port) {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) return () => process.kill(-child.pid, 'SIGTERM');
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.kill(-child.pid, 'SIGTERM');
  throw new Error(`the server did not start:\n${output.slice(0, 2000)}`);
}

/** Builds and serves one mode, and checks each of its pages; `times` collects how long the build and checks took. */
async function checkMode(browsers, mode, work, { bound = false, exports = false, times = [] } = {}) {
  if (mode.cdnPage) return checkCdnPage(browsers, mode.cdnPage, work, { exports });
  if (mode.build) {
    const built = Date.now();
    rmSync(join(work, mode.out), { recursive: true, force: true });
    await run(mode.build[0], mode.build.slice(1), work);
    times.push(`build ${seconds(built)}`);
    if (mode.copyPage) {
      cpSync(join(work, 'index.html'), join(work, mode.out, 'index.html'));
      cpSync(join(work, 'public'), join(work, mode.out), { recursive: true });
    }
    if (!mode.serve) {
      const checked = Date.now();
      try {
        return await serveAndCheck(browsers, join(work, mode.out), 'index.html', [], { exports });
      } finally {
        times.push(`checks ${seconds(checked)}`);
      }
    }
  }
  const checked = Date.now();
  const port = await freePort();
  const command = mode.serve ?? ['npx', 'vite', '--port', String(port), '--strictPort', '--host', '127.0.0.1'];
  const stop = await startDevServer(command, work, port);
  try {
    const proxy = await proxyTo(port);
    try {
      const pages = mode.pages ?? ['/'];
      const results = {};
      for (const page of pages) {
        const outcome = await checkIn(browsers, `http://127.0.0.1:${proxy.port}${page}`, proxy.failures, {
          bound,
          exports,
        });
        for (const [check, result] of Object.entries(outcome))
          results[pages.length > 1 ? `${page} ${check}` : check] = result;
      }
      return results;
    } finally {
      await proxy.close();
    }
  } finally {
    stop();
    times.push(`checks ${seconds(checked)}`);
  }
}

/**
 * The checks of `url` in each of `browsers`, one after the other, each with its own record of failed requests; the
 * checks of a browser after the first are named after it ("WebKit: ready").
 */
async function checkIn(browsers, url, failures, options) {
  const results = {};
  for (const [index, browser] of browsers.entries()) {
    failures.length = 0;
    // WebKitGTK has no video encoder the export can use (docs/export.md): its pages export in Chromium only.
    const outcome = await checkApp(browser, url, failures, {
      ...options,
      exports: Boolean(options?.exports) && browser.name === 'Chromium',
    });
    for (const [check, result] of Object.entries(outcome))
      results[index === 0 ? check : `${browser.name}: ${check}`] = result;
  }
  return results;
}

async function serveAndCheck(browsers, folder, page, failures = [], options = {}) {
  const server = await serveStatic(folder, { failures });
  try {
    return await checkIn(browsers, `http://127.0.0.1:${server.port}/${page}`, failures, options);
  } finally {
    await server.close();
  }
}

/** Serves the package's files on one origin and `page` (its `__CDN__` replaced by that origin) on another. */
async function checkCdnPage(browsers, page, work, options) {
  const failures = [];
  const cdn = await serveStatic(join(work, 'cdn'), { failures, cors: true });
  try {
    const site = join(work, 'site');
    rmSync(site, { recursive: true, force: true });
    cpSync(join(work, 'public'), site, { recursive: true });
    writeFileSync(
      join(site, page),
      readFileSync(join(work, page), 'utf8').replaceAll('__CDN__', `http://localhost:${cdn.port}`),
    );
    return await serveAndCheck(browsers, site, page, failures, options);
  } finally {
    await cdn.close();
  }
}

const only = process.argv.slice(2);
const names = only.length > 0 ? only : Object.keys(APPS);
// Two apps at a time: one app's builds and type-check overlap the other's checks, which mostly wait (3 s idle each).
const CONCURRENT_APPS = 2;
const started = Date.now();
const counts = { passed: 0, failed: 0 };
const mark = { passed: 'ok  ', failed: 'FAIL' };

/** Installs, type-checks and checks one app; its lines print together when it is done. */
async function checkOneApp(browsers, name, tarball) {
  const appStarted = Date.now();
  const lines = [];
  const times = [];
  const report = (label, outcome, detail = '') => {
    counts[outcome]++;
    lines.push(`${mark[outcome]} ${label}${detail ? ` — ${detail}` : ''}`);
  };
  try {
    let work;
    const installed = Date.now();
    try {
      work = await prepare(name, tarball);
    } catch (error) {
      report(`${name}: install`, 'failed', error.message);
      return;
    }
    times.push(`install ${seconds(installed)}`);
    const { typecheck, modes, bound, webkit, exports } = APPS[name];
    if (typecheck) {
      // One command, or several run in turn (a generator before the checker); the last one's words name the check.
      const given = typeof typecheck === 'function' ? typecheck(work) : typecheck;
      const commands = Array.isArray(given[0]) ? given : [given];
      const words = commands.at(-1).slice(1);
      const options = words.findIndex((word) => !/^[a-z][\w-]*$/.test(word));
      const label = `${name}: ${words.slice(0, options < 0 ? undefined : options).join(' ')}`;
      const checked = Date.now();
      try {
        for (const command of commands) await run(command[0], command.slice(1), work);
        report(label, 'passed');
      } catch (error) {
        report(label, 'failed', error.message);
      }
      times.push(`typecheck ${seconds(checked)}`);
    }
    for (const [mode, how] of Object.entries(modes)) {
      let results;
      try {
        const those = webkit ? [browsers.chromium, browsers.webkit] : [browsers.chromium];
        results = await checkMode(those, how, work, { bound, exports, times });
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
  } finally {
    console.log(lines.join('\n'));
    log(`${name}: ${seconds(appStarted)} (${times.join(', ')})`);
  }
}

log('packing fx-sdk');
const tarball = await pack();
const browsers = {
  chromium: await chromiumBrowser(),
  webkit: names.some((name) => APPS[name].webkit) ? await webKitBrowser() : undefined,
};
try {
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) await checkOneApp(browsers, name, tarball);
  };
  await Promise.all(Array.from({ length: CONCURRENT_APPS }, worker));
} finally {
  await Promise.all(Object.values(browsers).map((browser) => browser?.close()));
}
log(`done in ${seconds(started)}`);
console.log(`apps: ${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed > 0 ? 1 : 0);
