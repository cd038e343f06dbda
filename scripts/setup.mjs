#!/usr/bin/env node
// Brings a fresh clone to a runnable state using only Node built-ins: npm packages, then the system
// programs the product drives (Chromium for preview tests and rendering, FFmpeg for encoding), Firefox ESR and
// WebKitGTK (with a virtual display), the other browsers the browser suite runs in, and PostgreSQL, the service's
// scale-out database.
// Idempotent and quick when everything is present.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { firefoxPath } from './firefox.mjs';
import { miniBrowserPath, webKitDriverPath, xvfbPath } from './webkit.mjs';
import { postgresBinDir } from './postgres.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const log = (message) => console.log(`[setup] ${message}`);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) {
    console.error(`[setup] "${command} ${args.join(' ')}" failed with exit code ${result.status}`);
    process.exit(result.status || 1);
  }
}

const lockFile = join(root, 'package-lock.json');
/** The hash of the lockfile node_modules was installed from: by content, as a checkout's file times say nothing. */
const lockStamp = join(root, 'node_modules', '.fx-lock-hash');
const lockHash = () => (existsSync(lockFile) ? createHash('sha256').update(readFileSync(lockFile)).digest('hex') : '');

function npmPackagesStale() {
  if (existsSync(lockStamp)) return readFileSync(lockStamp, 'utf8') !== lockHash();
  // Installed before the stamp existed: npm's own record must be newer than the lockfile.
  const installed = join(root, 'node_modules', '.package-lock.json');
  return !existsSync(installed) || (existsSync(lockFile) && statSync(lockFile).mtimeMs > statSync(installed).mtimeMs);
}

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

// Debian package that provides each program we need.
const systemPrograms = [
  {
    program: 'chromium',
    found: () => existsSync(chromium()),
    debian: 'chromium',
    why: 'browser tests, preview and rendering',
  },
  {
    program: 'firefox-esr',
    found: () => existsSync(firefoxPath()),
    debian: 'firefox-esr',
    why: 'browser tests in Firefox (npm run test:firefox)',
  },
  {
    program: 'WebKitWebDriver',
    found: () => webKitDriverPath() !== undefined && existsSync(miniBrowserPath()),
    debian: 'webkit2gtk-driver',
    why: 'browser tests in WebKit (npm run test:webkit)',
  },
  { program: 'Xvfb', found: () => existsSync(xvfbPath()), debian: 'xvfb', why: 'the display WebKit tests run on' },
  { program: 'ffmpeg', found: () => has('ffmpeg'), debian: 'ffmpeg', why: 'video encoding' },
  { program: 'ffprobe', found: () => has('ffprobe'), debian: 'ffmpeg', why: 'checking rendered videos' },
  {
    program: 'chromium-headless-shell',
    found: () => existsSync('/usr/lib/chromium/chromium-headless-shell'),
    debian: 'chromium-headless-shell',
    why: 'deterministic BeginFrame capture (optional: rendering falls back to screenshots)',
    optional: true,
  },
  {
    program: 'zsh',
    found: () => has('zsh'),
    debian: 'zsh',
    why: 'testing the zsh completion script (optional: that test is skipped without it)',
    optional: true,
  },
  {
    program: 'initdb',
    found: () => postgresBinDir() !== undefined,
    debian: 'postgresql',
    why: 'the render service on PostgreSQL (npm run test:postgres starts a throwaway cluster)',
  },
];

function chromium() {
  return process.env.FX_CHROMIUM || '/usr/bin/chromium';
}

const sharedModules = existsSync(join(root, 'node_modules')) && lstatSync(join(root, 'node_modules')).isSymbolicLink();
if (npmPackagesStale()) {
  // A linked node_modules (a git worktree sharing another checkout's) is that checkout's to install: `npm ci` here
  // would empty it under every tree that shares it.
  if (sharedModules) log('node_modules is a link to another checkout and looks stale; run the set-up there');
  else {
    log('installing npm packages');
    run('npm', [existsSync(lockFile) ? 'ci' : 'install', '--no-audit', '--no-fund']);
  }
}
if (!sharedModules && existsSync(join(root, 'node_modules'))) writeFileSync(lockStamp, lockHash());

const missing = systemPrograms.filter((entry) => !entry.found());
if (missing.length > 0) {
  const packages = [...new Set(missing.map((entry) => entry.debian))];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && has('apt-get')) {
    log(`installing Debian packages: ${packages.join(' ')}`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', ...packages], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    const required = missing.filter((entry) => !entry.optional);
    for (const entry of missing) {
      log(`missing ${entry.program} (${entry.why}); install it with: sudo apt-get install ${entry.debian}`);
    }
    if (required.length > 0) {
      log('set FX_CHROMIUM, FX_FIREFOX or FX_WEBKIT_DRIVER and FX_WEBKIT_BROWSER to use a browser installed elsewhere');
      process.exit(1);
    }
  }
}

const versionOf = (program) =>
  execFileSync(program, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
log(`ready (${versionOf(chromium())}; ${versionOf(firefoxPath())})`);
