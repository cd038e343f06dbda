#!/usr/bin/env node
// `npm run manifest`: regenerates custom-elements.json from the elements' JSDoc. The analyzer needs TypeScript 5's
// JS API, so it lives in tools/cem with its own install (the project compiles with TypeScript 7).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status || 1);
};

if (!existsSync('tools/cem/node_modules/.bin/cem'))
  run('npm', ['--prefix', 'tools/cem', 'ci', '--no-audit', '--no-fund']);
run('tools/cem/node_modules/.bin/cem', [
  'analyze',
  '--litelement',
  '--globs',
  'src/elements/composition/fx-composition.ts',
  'src/elements/render-button/fx-render-button.ts',
  'src/elements/panel/fx-variables-panel.ts',
  '--outdir',
  '.',
  '--config',
  'tools/cem/config.mjs',
]);
