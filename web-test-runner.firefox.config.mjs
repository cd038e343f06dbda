// The browser suite again, in Firefox ESR driven over WebDriver BiDi (`npm run test:firefox`). Same files, server
// and plugins as web-test-runner.config.mjs; @web/test-runner-chrome's launcher takes puppeteer-core with
// `browser: 'firefox'`, so no browser download is involved. Chromium-only techniques are skipped per test with a
// stated reason (test/browser.ts).
import puppeteer from 'puppeteer-core';
import { chromeLauncher } from '@web/test-runner-chrome';
import { summaryReporter, defaultReporter } from '@web/test-runner';
import base from './web-test-runner.config.mjs';
import { closingLineReporter } from './scripts/wtr-closing-line.mjs';
import { firefoxPath } from './scripts/firefox.mjs';

export default {
  ...base,
  // One page at a time: in Firefox every new test window takes the keyboard from the others, which breaks the
  // focus tests (test/security/element-focus.test.ts) at random; about 25 s slower than two at a time.
  concurrency: 1,
  browsers: [
    chromeLauncher({
      puppeteer,
      launchOptions: {
        browser: 'firefox',
        executablePath: firefoxPath(),
        extraPrefsFirefox: {
          // Test pages run side by side in windows; a window in the background must keep its timers and frames.
          'dom.min_background_timeout_value': 0,
          'dom.timeout.enable_budget_timer_throttling': false,
          // A test's window.open() opens a background tab, not a window that takes focus from the other test pages.
          'browser.link.open_newwindow': 3,
          'browser.link.open_newwindow.restriction': 0,
          'browser.tabs.loadDivertedInBackground': true,
        },
      },
      createPage: ({ browser }) => browser.newPage({ type: 'window' }),
    }),
  ],
  reporters: [process.env.CI ? summaryReporter({ flatten: true }) : defaultReporter(), closingLineReporter('firefox')],
};
