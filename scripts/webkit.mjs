// WebKitGTK for the browser suite (web-test-runner.webkit.config.mjs): Debian's webkit2gtk-driver gives
// WebKitWebDriver and the MiniBrowser it drives; xvfb gives the display both need (setup.mjs installs them).
// startWebKitDriver() starts a private Xvfb and a WebKitWebDriver on free numbers and stops both with the run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

const libexec = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1';

/** The MiniBrowser WebKitWebDriver launches: `FX_WEBKIT_BROWSER` if set. */
export const miniBrowserPath = () => process.env.FX_WEBKIT_BROWSER || `${libexec}/MiniBrowser`;
/** `FX_WEBKIT_DRIVER` if set. */
export const webKitDriverPath = () =>
  process.env.FX_WEBKIT_DRIVER ||
  ['/usr/bin/WebKitWebDriver', `${libexec}/WebKitWebDriver`].find((path) => existsSync(path));
export const xvfbPath = () => '/usr/bin/Xvfb';

/** Screen of the private display: room for a test page plus its sign-in popup. */
const SCREEN = '1280x1024x24';
/** Characters of the driver's stderr kept for an error message. */
const STDERR_KEPT = 4000;
/** How long the driver may take to answer `/status` after it started. */
const STARTUP_MS = 15_000;

/** A free TCP port on the loopback interface (free when asked; the driver takes it right after). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts Xvfb on the first free display; `-displayfd` writes its number on fd 3 once it accepts clients. */
function startXvfb() {
  const xvfb = spawn(xvfbPath(), ['-displayfd', '3', '-screen', '0', SCREEN, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  xvfb.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    xvfb.stdio[3].once('data', (chunk) => resolve({ process: xvfb, display: `:${String(chunk).trim()}` }));
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code} before it was ready: ${stderr.trim()}`)));
    xvfb.once('error', reject);
  });
}

async function waitForStatus(url, driver) {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${driver.exitCode}`);
    try {
      if ((await fetch(`${url}/status`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not answer ${url}/status within ${STARTUP_MS} ms`);
}

/**
 * Starts Xvfb and WebKitWebDriver; resolves with the driver's port and a `stop()` that ends both (also on the
 * runner's exit, so a failed run leaves no display or driver behind). `deviceScaleFactor` (an integer: GTK's
 * `GDK_SCALE`) gives the browser's windows that many device pixels per CSS pixel.
 */
export async function startWebKitDriver({ deviceScaleFactor } = {}) {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(webKitDriverPath(), [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DISPLAY: xvfb.display, ...(deviceScaleFactor && { GDK_SCALE: String(deviceScaleFactor) }) },
  });
  // The browser's processes write here too, mostly that there is no sound card or D-Bus: kept for a failed start.
  let stderr = '';
  driver.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-STDERR_KEPT)));
  const stop = () => {
    process.off('exit', stop);
    for (const child of [driver, xvfb.process]) if (child.exitCode === null) child.kill();
  };
  process.on('exit', stop);
  try {
    await waitForStatus(`http://127.0.0.1:${port}`, driver);
  } catch (error) {
    stop();
    throw new Error(`${error.message}\n${stderr.trim()}`, { cause: error });
  }
  return { port, display: xvfb.display, stop };
}

/** WebDriver classic capabilities for a MiniBrowser session (webdriverio 9 would ask for BiDi, which this lacks). */
export const webKitCapabilities = () => ({
  browserName: 'MiniBrowser',
  'wdio:enforceWebDriverClassic': true,
  'webkitgtk:browserOptions': { binary: miniBrowserPath(), args: ['--automation'] },
});
