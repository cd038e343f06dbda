/**
 * What the browser suite needs to know about the browser it runs in (Chromium, Firefox ESR and WebKitGTK, see
 * web-test-runner.firefox.config.mjs and web-test-runner.webkit.config.mjs). A test that needs a Chromium-only
 * technique is declared with {@link itWithChromium} and a reason from {@link ChromiumOnly}; one that needs what
 * WebKit lacks, with {@link itUnlessWebKit} and a reason from {@link WebKitLacks}. It is reported as skipped, reason
 * in its title, where it cannot run. Differences in how browsers *serialise* a value are normalised instead.
 */

// Optional: this module is also imported by Node tests (through shared tables), where Node 20 has no navigator.
const userAgent = globalThis.navigator?.userAgent ?? '';
export const isFirefox = userAgent.includes('Firefox/');
/** WebKitGTK's MiniBrowser says "Safari" and no "Chrome"; Chromium says both. */
export const isWebKit = userAgent.includes('AppleWebKit/') && !userAgent.includes('Chrome/') && !isFirefox;
const engine = isFirefox ? 'Firefox' : isWebKit ? 'WebKit' : 'Chromium';

/** Why a technique runs only in Chromium, said once. */
export const ChromiumOnly = {
  a11ySnapshot: 'the a11y-snapshot command reads the accessibility tree over CDP',
} as const;
export type ChromiumOnly = keyof typeof ChromiumOnly;

/** What WebKitGTK (2.50, driven by WebKitWebDriver) lacks that a test needs, said once; docs/browsers.md lists them. */
export const WebKitLacks = {
  fontCors: 'it loads cross-origin fonts without CORS headers, so an opaque-origin frame has no failure to show',
  heldKeys: 'the WebDriver launcher sends key presses and text only, not a held modifier (sendKeys down/up)',
  longText: 'a text field keeps at most 524288 characters, so a value past the size limit cannot be typed in',
  opfs: 'navigator.storage.getDirectory (the origin private file system) is absent in WebKitGTK 2.50',
  videoEncoder:
    'VideoEncoder.isConfigSupported takes its web process down (WebKitGTK 2.50 under Xvfb, for vp8, vp09 and avc1 alike), so nothing can be encoded in the page',
  scriptErrorMessage:
    'an error thrown by a script of an opaque-origin (sandboxed) frame reaches its error listeners as "Script error.", without its message',
} as const;
export type WebKitLacks = keyof typeof WebKitLacks;

/** `it`, in Chromium only: elsewhere the test is skipped with `reason` in its title. */
export function itWithChromium(reason: ChromiumOnly, title: string, test: Mocha.Func | Mocha.AsyncFunc): void {
  if (engine !== 'Chromium') it.skip(`${title} [not in ${engine}: ${ChromiumOnly[reason]}]`, test);
  else it(title, test);
}

/** `it`, but in WebKit, where the test is skipped with `reason` in its title. */
export function itUnlessWebKit(reason: WebKitLacks, title: string, test: Mocha.Func | Mocha.AsyncFunc): void {
  if (isWebKit) it.skip(`${title} [not in WebKit: ${WebKitLacks[reason]}]`, test);
  else it(title, test);
}

/**
 * The family names of a computed `font-family`, unquoted. Chromium quotes a name with a space (`"Fira Sans"`) and
 * leaves an identifier bare; Firefox keeps the quotes as written: the names are what the tests mean.
 */
export function fontFamilyNames(computed: string): string[] {
  return computed.split(',').map((name) => name.trim().replace(/^(["'])(.*)\1$/, '$2'));
}
