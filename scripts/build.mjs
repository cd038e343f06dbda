#!/usr/bin/env node
// Emits dist/: fx-sdk.js (ES, with the runtime's code inside), fx-sdk.standalone.js (the same with lit and zod
// inside, for a plain `<script type="module">`), fx-node.js (`fx-sdk/node`), fx.iife.js (classic
// script, whole SDK), fx-player.iife.js (classic script, the element alone), fx-export-encoder.js (the classic
// scripts' export encoder, loaded on the first export), fx-runtime.js (in-frame runtime),
// types/ (of the published entries only), fx-react.js + fx-react.server.js + types/frameworks/react.d.ts (`fx-sdk/react`),
// fx-svelte.js + types/frameworks/svelte.d.ts (`fx-sdk/svelte`). Then packages/server/dist/ (the `fx` command and the service for plain
// `node`): scripts/build-server.mjs.
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';

/** What a React Server Component importing fx-sdk/react gets, at build time (the `react-server` export condition). */
const REACT_SERVER_MESSAGE =
  'fx-sdk/react was imported from a React Server Component, where nothing of it would reach the browser. Import it ' +
  "from a Client Component instead: put 'use client' at the top of the file that imports it.";

const step = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status || 1);
};

rmSync('dist', { recursive: true, force: true });
// The runtime first: the ES build embeds it.
for (const mode of ['runtime', 'es', 'standalone', 'node', 'iife', 'player', 'encoder'])
  step('npx', ['vite', 'build', '--mode', mode, '--logLevel', 'warn']);
step('npx', ['tsc', '-p', 'tsconfig.build.json']);
// fx-sdk/react: the components (src/frameworks/react.ts, React left to the app) as a client module that registers
// the elements, and for React Server Components a module that fails the build, naming the fix (a server component's
// import never reaches the browser, so its markup would show nothing). fx-sdk/svelte: markup typings and a module that
// registers the elements. The typings are checked by the apps of `npm run test:apps`.
step('npx', [
  'esbuild',
  'src/frameworks/react.ts',
  '--bundle',
  '--format=esm',
  '--target=es2022',
  '--external:react',
  '--log-level=warning',
  `--banner:js='use client';\n// fx-sdk/react: its typings are types/frameworks/react.d.ts.\nimport './fx-sdk.js';`,
  '--outfile=dist/fx-react.js',
]);
// The same names, so a bundler's static check of `import { FxComposition }` passes and evaluation says why.
writeFileSync(
  'dist/fx-react.server.js',
  [
    `const message = ${JSON.stringify(REACT_SERVER_MESSAGE)};`,
    'const fromServer = () => {',
    '  throw new Error(message);',
    '};',
    'export { fromServer as FxComposition, fromServer as FxVariablesPanel, fromServer as FxRenderButton };',
    'throw new Error(message);',
    '',
  ].join('\n'),
);
copyFileSync('src/frameworks/svelte.d.ts', 'dist/types/frameworks/svelte.d.ts');
writeFileSync(
  'dist/fx-svelte.js',
  `// fx-sdk/svelte: registers <fx-composition>; its typings are types/frameworks/svelte.d.ts.\nimport './fx-sdk.js';\n`,
);
// fx-sdk-server last: it copies fx.iife.js and fx-runtime.js from dist/.
step('node', ['scripts/build-server.mjs']);
