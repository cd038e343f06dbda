// Browser tests run in the system Chromium (see TOOLCHAIN.md); TypeScript is stripped by esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { summaryReporter, defaultReporter } from '@web/test-runner';
import { closingLineReporter } from './scripts/wtr-closing-line.mjs';
import { chromiumPath, chromiumFlags } from './scripts/chromium.mjs';

export default {
  files: ['test/**/*.test.ts', '!test/**/*.node.test.ts'],
  nodeResolve: true,
  concurrency: 2,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  browsers: [chromeLauncher({ launchOptions: { executablePath: chromiumPath(), args: chromiumFlags } })],
  testFramework: { config: { timeout: 10000 } },
  reporters: [process.env.CI ? summaryReporter({ flatten: true }) : defaultReporter(), closingLineReporter('browser')],
};
