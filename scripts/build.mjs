#!/usr/bin/env node
// Emits dist/: fx-sdk.js (ES, with the runtime's code inside), fx-sdk.standalone.js (the same with lit and zod
// inside, for a plain `<script type="module">`), fx-node.js (`fx-sdk/node`), fx.iife.js (classic
// script, whole SDK), fx-player.iife.js (classic script, the element alone), fx-runtime.js (in-frame runtime),
// types/ (of the published entries only), fx-react.js + types/react.d.ts (`fx-sdk/react`), fx-svelte.js +
// types/svelte.d.ts (`fx-sdk/svelte`). Then packages/server/dist/ (the `fx` command and the service for plain
// `node`): scripts/build-server.mjs.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

const step = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status || 1);
};

rmSync('dist', { recursive: true, force: true });
// The runtime first: the ES build embeds it.
for (const mode of ['runtime', 'es', 'standalone', 'node', 'iife', 'player'])
  step('npx', ['vite', 'build', '--mode', mode, '--logLevel', 'warn']);
step('npx', ['tsc', '-p', 'tsconfig.build.json']);
// fx-sdk/react and fx-sdk/svelte: markup typings (checked by the React and Svelte apps of `npm run test:apps`) and a
// module that registers the element.
for (const file of readdirSync('src/frameworks')) copyFileSync(`src/frameworks/${file}`, `dist/types/${file}`);
for (const framework of ['react', 'svelte']) {
  writeFileSync(
    `dist/fx-${framework}.js`,
    `// fx-sdk/${framework}: registers <fx-composition>; its typings are types/${framework}.d.ts.\nimport './fx-sdk.js';\n`,
  );
}
// fx-sdk-server last: it copies fx.iife.js and fx-runtime.js from dist/.
step('node', ['scripts/build-server.mjs']);
