// Where the system Chromium lives and the flags it needs on this kind of machine (TOOLCHAIN.md).
import { existsSync } from 'node:fs';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium executable: `FX_CHROMIUM` if set, else the first system install found. */
export function chromiumPath() {
  if (process.env.FX_CHROMIUM) return process.env.FX_CHROMIUM;
  return candidates.find((path) => existsSync(path)) ?? candidates[0];
}

export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Test pages run side by side; a background page must keep its timers and animation frames.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];
