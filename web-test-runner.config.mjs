// Browser tests run in the system Chromium (see TOOLCHAIN.md); TypeScript is stripped by esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { a11ySnapshotPlugin } from '@web/test-runner-commands/plugins';
import { summaryReporter, defaultReporter } from '@web/test-runner';
import { closingLineReporter } from './scripts/wtr-closing-line.mjs';
import { chromiumPath, chromiumFlags } from './scripts/chromium.mjs';
import { fixtureMiddleware, requestLogPlugin, screenshotPlugin } from './test/fixtures/server.mjs';
import { oauthServicePlugin } from './test/fixtures/oauth-service.mjs';
import { browserFieldPlugin } from './test/fixtures/browser-field.mjs';
import { mediaProbePlugin } from './test/fixtures/media-probe.mjs';

export default {
  files: ['test/**/*.test.ts', '!test/**/*.node.test.ts'],
  nodeResolve: true,
  concurrency: 2,
  middleware: fixtureMiddleware,
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }),
    screenshotPlugin,
    requestLogPlugin,
    oauthServicePlugin,
    browserFieldPlugin,
    mediaProbePlugin,
    a11ySnapshotPlugin(),
  ],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath(), args: chromiumFlags },
      // A window per page: a tab behind another tab is hidden and gets no animation frames or paint.
      createPage: ({ browser }) => browser.newPage({ type: 'window' }),
    }),
  ],
  testFramework: { config: { timeout: 10000 } },
  reporters: [process.env.CI ? summaryReporter({ flatten: true }) : defaultReporter(), closingLineReporter('browser')],
};
