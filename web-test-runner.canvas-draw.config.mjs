// The capture tests again in Chromium with HTML-in-Canvas on (`npm run test:capture-draw`): Chromium has
// `<canvas layoutsubtree>` and `drawElementImage` only behind this flag, so the default suite tests the
// foreignObject rasteriser and the refusal of HTML-in-Canvas as unavailable, and this one the rasteriser itself,
// through the frame's protocol and through exportVideo / captureFrame (whose `auto` then picks it).
import { summaryReporter, defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { closingLineReporter } from './scripts/wtr-closing-line.mjs';
import base from './web-test-runner.config.mjs';
import { chromiumPath, chromiumFlags } from './scripts/chromium.mjs';

export default {
  ...base,
  files: ['test/runtime/frame/capture/*.test.ts', 'test/export/**/*.test.ts', '!test/**/*.node.test.ts'],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: chromiumPath(),
        args: [...chromiumFlags, '--enable-blink-features=CanvasDrawElement'],
      },
      createPage: ({ browser }) => browser.newPage({ type: 'window' }),
    }),
  ],
  reporters: [
    process.env.CI ? summaryReporter({ flatten: true }) : defaultReporter(),
    closingLineReporter('capture-draw'),
  ],
};
