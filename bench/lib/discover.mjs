// Finds benchmark modules: every `bench/<folder>/bench.mjs` that exports `{ name, description, run }`.
import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE_FILE = 'bench.mjs';

/** All benchmarks under `benchDir`, sorted by name. Throws when a module is malformed or a name repeats. */
export async function discoverBenchmarks(benchDir) {
  const folders = (await readdir(benchDir, { withFileTypes: true })).filter((entry) => entry.isDirectory());
  const benchmarks = [];
  for (const folder of folders) {
    const file = join(benchDir, folder.name, MODULE_FILE);
    if (!existsSync(file)) continue;
    const module = await import(pathToFileURL(file).href);
    const { name, description, run } = module;
    if (typeof name !== 'string' || name === '' || typeof description !== 'string' || typeof run !== 'function') {
      throw new Error(`"${file}" must export a non-empty "name", a "description" string and a "run(context)" function`);
    }
    if (benchmarks.some((benchmark) => benchmark.name === name)) {
      throw new Error(`benchmark name "${name}" is exported by more than one module`);
    }
    benchmarks.push({ name, description, run, file });
  }
  return benchmarks.sort((a, b) => a.name.localeCompare(b.name));
}
