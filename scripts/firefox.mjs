// Where the system Firefox ESR lives (Debian's firefox-esr; setup.mjs installs it). The browser suite runs in it
// over WebDriver BiDi as well as in Chromium (web-test-runner.firefox.config.mjs).
import { existsSync } from 'node:fs';

const candidates = ['/usr/bin/firefox-esr', '/usr/bin/firefox'];

/** The Firefox executable: `FX_FIREFOX` if set, else the first system install found. */
export function firefoxPath() {
  if (process.env.FX_FIREFOX) return process.env.FX_FIREFOX;
  return candidates.find((path) => existsSync(path)) ?? candidates[0];
}
