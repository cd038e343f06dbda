#!/usr/bin/env node
// `npm test`: type-check, format check, build, Node tests, the service's tests on PostgreSQL, browser tests (Chromium,
// then Firefox ESR, then WebKitGTK), real apps, the global install of `fx`; ends with one closing line per runner and
// a total.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// Node 20's test runner takes no globs: list the files ourselves.
const nodeTests = readdirSync('test', { recursive: true })
  .filter((file) => file.endsWith('.node.test.ts'))
  .map((file) => join('test', file));
// The service suite again as the scale-out deployment: records in PostgreSQL (a throwaway cluster per test process)
// and files in S3 (s3rver, a bucket per service): the service's own tests and its hostile-input ones;
// test/service/postgres.node.test.ts runs only here.
const postgresTests = nodeTests.filter((file) => /^test\/(service\/|security\/service-)/.test(file));
// Skipped in the runs above (it needs FX_TEST_FAULTS); run as its own step below.
const FAULT_MATRIX = join('test', 'service', 'fault-matrix.node.test.ts');
// In-browser export against the server render: Chromium exporting beside the renderer, a few minutes of both
// cores, on its own so that the Node stage's timing-sensitive tests do not share the machine with it.
const EXPORT_PROOF = join('test', 'export', 'export-vs-render.node.test.ts');
const nodeStageTests = nodeTests.filter((file) => file !== EXPORT_PROOF);
const closing = /^(\w+): (\d+) passed, (\d+) failed/;
// A failed test's own line (scripts/node-closing-line.mjs), repeated after the totals.
const failure = /^failed: .*/;
const results = [];

// Node's test runner over TypeScript: the spec on stderr, the closing line (scripts/node-closing-line.mjs) on stdout.
const nodeTestRunner = [
  '--import',
  'tsx',
  '--test',
  '--test-reporter=spec',
  '--test-reporter-destination=stderr',
  '--test-reporter=./scripts/node-closing-line.mjs',
  '--test-reporter-destination=stdout',
];

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n== ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      buffered += chunk;
    });
    child.on('close', (code) => {
      const line = buffered
        .split('\n')
        .map((text) => text.match(closing))
        .filter(Boolean)
        .at(-1);
      const failures = buffered.split('\n').filter((text) => failure.test(text));
      results.push({ name, code, line, failures, seconds: (Date.now() - started) / 1000 });
      resolve(code);
    });
  });
}

await step('typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']);
// Code as prettier writes it (`npm run format` rewrites it; what it leaves alone: .prettierignore).
await step('format', 'npx', ['prettier', '--check', '.']);
await step('build', 'node', ['scripts/build.mjs']);
await step('node tests', 'node', [...nodeTestRunner, '--test-concurrency=2', ...nodeStageTests]);
await step('export = render', 'node', [...nodeTestRunner, EXPORT_PROOF], { FX_TEST_LABEL: 'export' });
await step('service on PostgreSQL + S3', 'node', [...nodeTestRunner, '--test-concurrency=2', ...postgresTests], {
  FX_TEST_DATABASE: 'postgres',
  FX_TEST_STORAGE: 's3',
  FX_TEST_LABEL: 'postgres',
});
// Several API and worker processes on one PostgreSQL and one bucket while faults are injected (about a minute;
// docs/service.md), on its own: it restarts its database and needs the machine's cores for its five processes.
await step('fault matrix', 'node', [...nodeTestRunner.filter((arg) => arg !== '--test'), FAULT_MATRIX], {
  FX_TEST_DATABASE: 'postgres',
  FX_TEST_FAULTS: '1',
  FX_TEST_LABEL: 'faults',
});
await step('browser tests', 'npx', ['wtr']);
// The capture and export tests again with Chromium's HTML-in-Canvas on (behind a flag in Chromium 156).
await step('browser tests with HTML-in-Canvas', 'npx', ['wtr', '--config', 'web-test-runner.canvas-draw.config.mjs']);
await step('browser tests in Firefox', 'npx', ['wtr', '--config', 'web-test-runner.firefox.config.mjs']);
// WebKitGTK (MiniBrowser over WebDriver, under a private Xvfb: web-test-runner.webkit.config.mjs), one page at a time.
await step('browser tests in WebKit', 'npx', ['wtr', '--config', 'web-test-runner.webkit.config.mjs']);
// The packed browser package in real apps (Vite vanilla/React/Vue, webpack): test/apps/run.mjs.
await step('apps', 'node', ['test/apps/run.mjs']);
// The packed fx-sdk-server installed with `npm i -g`, then fx init + render from it: test/install/global-install.ts.
await step('install', 'node', [...nodeTestRunner, 'test/install/global-install.ts'], { FX_TEST_LABEL: 'install' });

console.log('');
for (const { name, code, seconds } of results)
  console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds.toFixed(1)} s)`);
const passed = results.reduce((sum, r) => sum + (r.line ? Number(r.line[2]) : 0), 0);
const failed = results.reduce((sum, r) => sum + (r.line ? Number(r.line[3]) : r.code === 0 ? 0 : 1), 0);
const failedSteps = results.filter((r) => r.code !== 0).length;
for (const r of results) if (r.line) console.log(r.line[0]);
console.log(`total: ${passed} passed, ${failed + (failed === 0 ? failedSteps : 0)} failed`);
for (const r of results) for (const text of r.failures) console.log(text);
process.exit(failedSteps > 0 ? 1 : 0);
