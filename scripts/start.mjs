#!/usr/bin/env node
// `npm start`: builds the SDK, then serves the demo (Vite) on http://localhost:5173/demo/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { rawStatic } from './raw-static.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.PORT ?? 5173);

const build = spawnSync('node', ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = await createServer({
  root,
  configFile: false,
  logLevel: 'warn',
  // The demo imports the SDK the way an app would: by its package name, resolved to the built bundle.
  resolve: { alias: { 'fx-sdk': `${root}dist/fx-sdk.js` } },
  server: { port, host: '127.0.0.1', strictPort: false, open: false },
  appType: 'mpa',
  plugins: [
    {
      name: 'fx-compositions-as-files',
      configureServer(vite) {
        vite.middlewares.use('/demo/compositions', rawStatic(`${root}demo/compositions`));
      },
    },
  ],
});
await server.listen();
const url = `http://localhost:${server.config.server.port}/demo/`;
console.log(`\n  fx demo:        ${url}\n  script-tag page: ${url}script-tag.html\n\n  Ctrl+C to stop.\n`);
