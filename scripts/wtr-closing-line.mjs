// Prints one line standing alone, e.g. `browser: 212 passed, 0 failed`, which CI reads.

function count(suite, totals) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite?.suites ?? []) count(child, totals);
}

/** A @web/test-runner reporter that closes the run with `<label>: N passed, N failed`. */
export function closingLineReporter(label) {
  let line = `${label}: 0 passed, 1 failed`;
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        count(session.testResults, totals);
        // A file that failed to load has no results but errors: count it as a failure.
        if (!session.passed && session.errors?.length) totals.failed += session.errors.length;
      }
      line =
        `${label}: ${totals.passed} passed, ${totals.failed} failed` +
        (totals.skipped ? `, ${totals.skipped} skipped` : '');
    },
    stop() {
      process.stdout.write(`\n${line}\n`);
    },
  };
}
