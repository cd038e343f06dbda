/** The MiniBrowser WebKitWebDriver launches: `FX_WEBKIT_BROWSER` if set. */
export function miniBrowserPath(): string;
/** `FX_WEBKIT_DRIVER` if set. */
export function webKitDriverPath(): string | undefined;
export function xvfbPath(): string;

export interface WebKitDriver {
  readonly port: number;
  /** The private X display, e.g. `:99`. */
  readonly display: string;
  stop(): void;
}

/**
 * Starts Xvfb and WebKitWebDriver; `deviceScaleFactor` (an integer: GTK's `GDK_SCALE`) gives the browser's windows
 * that many device pixels per CSS pixel.
 */
export function startWebKitDriver(options?: { deviceScaleFactor?: number }): Promise<WebKitDriver>;

/** WebDriver classic capabilities for a MiniBrowser session. */
export function webKitCapabilities(): {
  browserName: string;
  'wdio:enforceWebDriverClassic': true;
  'webkitgtk:browserOptions': { binary: string; args: string[] };
};
