#!/usr/bin/env node
// `npm run bench [-- name...]`: runs the benchmarks under bench/, prints a table and writes bench/results.json.
// Budgets are reported, never asserted: the exit code is 0 even over budget, non-zero only when a benchmark
// crashes (1) or the command line names an unknown benchmark (2).
import { writeFile } from 'node:fs/promises';
import { cpus, arch, platform } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverBenchmarks } from './lib/discover.mjs';
import { checkBenchmarkResult, formatResultsTable, summarizeCounts, summarizeMetric } from './lib/report.mjs';
import { createSession } from './lib/session.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);
const resultsFile = join(benchDir, 'results.json');
const log = (message) => console.error(message);

const USAGE = `usage: node bench/run.mjs [--list] [name...]
  runs every benchmark under bench/ (or only the named ones), prints a table and writes bench/results.json`;

async function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const unknownOption = argv.find((arg) => arg.startsWith('-') && arg !== '--list');
  if (unknownOption) {
    log(`unknown option "${unknownOption}"\n${USAGE}`);
    return 2;
  }
  const available = await discoverBenchmarks(benchDir);
  if (argv.includes('--list')) {
    for (const benchmark of available) console.log(`${benchmark.name.padEnd(16)} ${benchmark.description}`);
    return 0;
  }
  const requested = argv.filter((arg) => !arg.startsWith('-'));
  const unknown = requested.filter((name) => !available.some((benchmark) => benchmark.name === name));
  if (unknown.length > 0) {
    log(
      `unknown benchmark ${unknown.map((name) => `"${name}"`).join(', ')}; expected one of ${available.map((benchmark) => benchmark.name).join(', ')}`,
    );
    return 2;
  }
  const selected =
    requested.length > 0 ? available.filter((benchmark) => requested.includes(benchmark.name)) : available;

  const session = createSession({ root, log });
  const benchmarks = {};
  let chromium;
  try {
    for (const benchmark of selected) benchmarks[benchmark.name] = await runOne(benchmark, session);
  } finally {
    chromium = session.chromiumVersion();
    await session.close();
  }

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    chromium,
    platform: `${platform()} ${arch()}`,
    cpus: cpus().length,
    benchmarks,
  };
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(formatResultsTable(benchmarks));
  console.log(
    `\nnode ${results.node}, chromium ${chromium ?? 'unknown'}; results written to ${relative(process.cwd(), resultsFile)}`,
  );
  return Object.values(benchmarks).some((entry) => entry.error) ? 1 : 0;
}

async function runOne(benchmark, session) {
  log(`running ${benchmark.name}: ${benchmark.description}`);
  const { context, dispose } = session.contextFor(benchmark.name);
  const started = performance.now();
  try {
    const result = await benchmark.run(context);
    if (result?.skipped) {
      log(`${benchmark.name} skipped: ${result.skipped}`);
      return { description: benchmark.description, skipped: result.skipped, details: result.details ?? {} };
    }
    checkBenchmarkResult(benchmark.name, result);
    const metrics = Object.fromEntries(result.metrics.map((metric) => [metric.name, summarizeMetric(metric)]));
    return {
      description: benchmark.description,
      durationMs: Math.round(performance.now() - started),
      details: result.details ?? {},
      ...(result.counts ? { counts: summarizeCounts(result.counts) } : {}),
      metrics,
    };
  } catch (error) {
    log(`benchmark "${benchmark.name}" crashed: ${error?.stack ?? error}`);
    return { description: benchmark.description, error: String(error?.message ?? error) };
  } finally {
    await dispose();
  }
}

process.exitCode = await main(process.argv.slice(2)).catch((error) => {
  log(`bench harness failed: ${error?.stack ?? error}`);
  return 1;
});
