// node:test reporter: prints `node: N passed, N failed` standing alone (suites are not counted); FX_TEST_LABEL
// names another stage than `node`. Each failed test also gets a `failed:` line (file, name, the start of the
// error with its lines joined: a deep-equal's diff included) before it: the tail of a CI log then says which test
// failed and how, not only how many.
import { relative } from 'node:path';

/** Characters of a failure's message kept on its line. */
const MESSAGE_KEPT = 500;

export default async function* closingLine(source) {
  const label = process.env.FX_TEST_LABEL ?? 'node';
  let passed = 0;
  let skipped = 0;
  const failures = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') {
      if (event.type === 'test:fail' && event.data.details.error?.failureType !== 'subtestsFailed')
        failures.push(failureLine(label, event.data));
      continue;
    }
    if (event.data.skip || event.data.todo) skipped += 1;
    else if (event.type === 'test:pass') passed += 1;
    else failures.push(failureLine(label, event.data));
  }
  for (const line of failures) yield `${line}\n`;
  yield `\n${label}: ${passed} passed, ${failures.length} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}

function failureLine(label, { file, name, details }) {
  const error = details?.error;
  const lines = String(error?.cause?.message ?? error?.message ?? 'failed')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const where = file ? relative(process.cwd(), file) : 'unknown file';
  return `failed: ${label} · ${where} › ${name} — ${lines.join(' ⏎ ').slice(0, MESSAGE_KEPT)}`;
}
