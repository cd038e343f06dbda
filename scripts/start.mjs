#!/usr/bin/env node
// `npm start`: builds the SDK, serves the demo (Vite) and starts the reference render service (SQLite + local disk
// under .fx/service) with /v3 and its sign-in server (/oauth) proxied, so the page, the API and sign-in share one
// origin.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { rawStatic } from './raw-static.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.PORT ?? 5173);
const servicePort = Number(process.env.FX_SERVICE_PORT ?? 8787);

// `--no-build` serves the dist/ already built (the demo's end-to-end test runs after npm test's build).
if (!process.argv.includes('--no-build')) {
  const build = spawnSync('node', ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = await createServer({
  root,
  configFile: false,
  logLevel: 'warn',
  // The demo imports the SDK the way an app would: by its package name, resolved to the built bundle.
  // Production builds of its dependencies too (lit's development build warns in the console).
  resolve: { alias: { 'fx-sdk': `${root}dist/fx-sdk.js` }, conditions: ['module', 'browser', 'production'] },
  server: {
    port,
    host: '127.0.0.1',
    strictPort: false,
    open: false,
    // The API and the sign-in server on the page's origin: the render button needs no configuration.
    proxy: { '/v3': `http://127.0.0.1:${servicePort}`, '/oauth': `http://127.0.0.1:${servicePort}` },
  },
  appType: 'mpa',
  // Only the demo's pages: the test apps' pages import what exists once they are built.
  optimizeDeps: { entries: ['demo/**/*.html'] },
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
const pagePort = server.config.server.port;
const url = `http://localhost:${pagePort}/demo/`;

// Started once the page's port is known: the issuer and the sign-in's redirect pages are on that origin. Every
// sign-in is the local account "demo" (development only; the service allows it on loopback alone).
const service = spawn('node', ['--import', 'tsx', 'src/service/main.ts'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    FX_SERVICE_OAUTH_ISSUER: `http://localhost:${pagePort}/oauth`,
    FX_SERVICE_OAUTH_BROWSER_REDIRECT_URIS: [
      url,
      `http://localhost:${pagePort}/demo/script-tag.html`,
      `http://localhost:${pagePort}/demo/media-chrome.html`,
    ].join(','),
    FX_SERVICE_DEV_AUTO_LOGIN: 'demo',
    ...process.env,
    FX_SERVICE_PORT: String(servicePort),
  },
});
service.on('exit', (code) => {
  console.error(`fx render service exited (${code}); stopping.`);
  process.exit(code ?? 1);
});
console.log(`
  fx demo:          ${url}
  script-tag page:  ${url}script-tag.html
  media-chrome:     ${url}media-chrome.html
  render service:   http://127.0.0.1:${servicePort}/v3 (also proxied at ${url.replace('/demo/', '/v3')})
  sign-in:          automatic, as the local account "demo" (development only)
  API key:          node --import tsx src/service/admin.ts create-key --account me

  Ctrl+C to stop.
`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    service.kill('SIGTERM');
    await server.close();
    process.exit(0);
  });
}
