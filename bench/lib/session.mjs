// What one `npm run bench` shares between benchmarks: one static server, one Chromium, one bundle per entry.
// Each is started on first use, so a benchmark that needs no browser launches none.
import { execFileSync } from 'node:child_process';
import { chromiumPath } from '../../scripts/chromium.mjs';
import { launchChromium, openPage } from './browser.mjs';
import { bundleModule } from './bundle.mjs';
import { BLANK_PAGE_PATH, startStaticServer } from './server.mjs';

export function createSession({ root, log }) {
  let server;
  let browser;
  const bundles = new Map();

  const once = (start) => {
    let started;
    return () => (started ??= start());
  };
  const getServer = once(async () => (server = await startStaticServer({ root })));
  const getBrowser = once(async () => (browser = await launchChromium()));

  return {
    /**
     * The `context` handed to one benchmark's `run(context)`. Pages it opens are closed by `dispose()`.
     * `serveBundle(entry, path)` bundles a repo-relative source entry with esbuild and serves it at `path`.
     */
    contextFor(name) {
      const contexts = [];
      const cachingUndos = [];
      const prefixed = (message) => log(`[${name}] ${message}`);
      return {
        context: {
          root,
          log: prefixed,
          async url(path) {
            return (await getServer()).url(path);
          },
          async serve(path, body, contentType) {
            return (await getServer()).serve(path, body, contentType);
          },
          async serveBundle(entry, path) {
            if (!bundles.has(entry)) bundles.set(entry, bundleModule({ root, entry }));
            return (await getServer()).serve(path, await bundles.get(entry), 'text/javascript; charset=utf-8');
          },
          /** Serves the files of `folder` (an absolute path, may lie outside the repo) under `prefix`; returns its URL. */
          async serveFolder(prefix, folder) {
            return (await getServer()).serveFolder(prefix, folder);
          },
          /** Lets the browser cache responses under `prefix` (`cacheControl`, e.g. `max-age=600`) until the benchmark ends. */
          async allowCaching(prefix, cacheControl) {
            cachingUndos.push((await getServer()).allowCaching(prefix, cacheControl));
          },
          browser: getBrowser,
          async newPage(options = {}) {
            const origin = await getServer();
            // `options.browser`: another browser than the shared one (e.g. Chromium launched with other flags).
            const opened = await openPage(
              options.browser ?? (await getBrowser()),
              origin.url(options.path ?? BLANK_PAGE_PATH),
              {
                log: prefixed,
                ...options,
              },
            );
            contexts.push(opened.context);
            return opened.page;
          },
        },
        async dispose() {
          for (const undo of cachingUndos.splice(0)) undo();
          await Promise.allSettled(contexts.map((context) => context.close()));
        },
      };
    },

    /** The Chromium version: from the running browser, else from the executable itself. */
    chromiumVersion() {
      if (browser) return browser.version();
      try {
        const printed = execFileSync(chromiumPath(), ['--version'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        return printed.match(/\d+(\.\d+)+/)?.[0] ?? printed.trim();
      } catch {
        return null;
      }
    },

    async close() {
      await Promise.allSettled([browser?.close(), server?.close()]);
    },
  };
}
