#!/usr/bin/env node
// Emits dist/: fx-sdk.js (ES, with the runtime's code inside), fx-sdk.standalone.js (the same with lit and zod
// inside, for a plain `<script type="module">`), fx-node.js (`fx-sdk/node`), fx.iife.js (classic
// script, whole SDK), fx-player.iife.js (classic script, the element alone), fx-runtime.js (in-frame runtime),
// types/ (of the published entries only), fx-react.js + types/react.d.ts (`fx-sdk/react`).
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';

const step = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status || 1);
};

rmSync('dist', { recursive: true, force: true });
// The runtime first: the ES build embeds it.
for (const mode of ['runtime', 'es', 'standalone', 'node', 'iife', 'player']) step('npx', ['vite', 'build', '--mode', mode, '--logLevel', 'warn']);
step('npx', ['tsc', '-p', 'tsconfig.build.json']);
// fx-sdk/react: JSX typings (checked by the React app of `npm run test:apps`) and a module that registers the element.
copyFileSync('src/frameworks/react.d.ts', 'dist/types/react.d.ts');
writeFileSync('dist/fx-react.js', "// fx-sdk/react: registers <fx-composition>; its JSX typings are types/react.d.ts.\nimport './fx-sdk.js';\n");
