// node:test reporter: prints `node: N passed, N failed` standing alone (suites are not counted); FX_TEST_LABEL
// names another stage than `node`.
export default async function* closingLine(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') {
      if (event.type === 'test:fail' && event.data.details.error?.failureType !== 'subtestsFailed') failed += 1;
      continue;
    }
    if (event.data.skip || event.data.todo) skipped += 1;
    else if (event.type === 'test:pass') passed += 1;
    else failed += 1;
  }
  yield `\n${process.env.FX_TEST_LABEL ?? 'node'}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}
