// The browser suite again, in WebKitGTK (Safari's engine) over WebDriver classic (`npm run test:webkit`): the same
// files, server and plugins as web-test-runner.config.mjs. @web/test-runner-webdriver drives Debian's
// WebKitWebDriver + MiniBrowser through webdriverio; this config starts a private Xvfb and the driver itself
// (scripts/webkit.mjs). What WebKit lacks is skipped per test with a stated reason (test/browsers.ts).
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { summaryReporter, defaultReporter } from '@web/test-runner';
import base from './web-test-runner.config.mjs';
import { closingLineReporter } from './scripts/wtr-closing-line.mjs';
import { startWebKitDriver, webKitCapabilities } from './scripts/webkit.mjs';

/** The webdriver launcher, with the display and the driver started when the run starts and stopped with it. */
function webKitLauncher() {
  const launcher = webdriverLauncher({ hostname: '127.0.0.1', port: 0, capabilities: webKitCapabilities() });
  const { initialize, stop } = launcher;
  let driver;
  launcher.initialize = async function (...args) {
    driver = await startWebKitDriver();
    launcher.options.port = driver.port;
    return initialize.apply(this, args);
  };
  launcher.stop = async function (...args) {
    try {
      await stop.apply(this, args);
    } finally {
      driver?.stop();
    }
  };
  // For the fx-screenshot command (test/fixtures/server.mjs): WebDriver's screenshot of the viewport, as base64 PNG.
  launcher.screenshotViewport = () => launcher.driver.takeScreenshot();
  return launcher;
}

export default {
  ...base,
  // One MiniBrowser window, one test page at a time: the launcher navigates it from file to file (with more, it
  // puts the pages in iframes of one window, where a test's popup and focus are not a page's).
  concurrency: 1,
  browsers: [webKitLauncher()],
  // Its animation frames under Xvfb come every 100–900 ms: a test of many seeks takes longer than in Chromium.
  testFramework: { config: { timeout: 20000 } },
  reporters: [process.env.CI ? summaryReporter({ flatten: true }) : defaultReporter(), closingLineReporter('webkit')],
};
