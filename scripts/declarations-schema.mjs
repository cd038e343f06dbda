// Writes schemas/composition-variables.schema.json from the zod declaration schemas, for editors' validation of
// `data-composition-variables`. Run: node --import tsx scripts/declarations-schema.mjs [--check]
// With --check nothing is written: exits 1 when the committed file differs from what would be written.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { declarationsJsonSchema } from '../src/runtime/declaration-schemas.ts';

const target = fileURLToPath(new URL('../schemas/composition-variables.schema.json', import.meta.url));
const text = `${JSON.stringify(declarationsJsonSchema(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {}
  if (committed !== text) {
    console.error(`${target} is out of date: run node --import tsx scripts/declarations-schema.mjs`);
    process.exit(1);
  }
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
