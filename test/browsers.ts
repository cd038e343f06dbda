/**
 * What the browser suite needs to know about the browser it runs in (Chromium and Firefox ESR, see
 * web-test-runner.firefox.config.mjs). A test that needs a Chromium-only technique is declared with
 * {@link itWithChromium} and a reason from {@link ChromiumOnly}: it runs in Chromium and is reported as skipped,
 * reason in its title, elsewhere. Differences in how browsers *serialise* a value are normalised instead.
 */

// Optional: this module is also imported by Node tests (through shared tables), where Node 20 has no navigator.
export const isFirefox = globalThis.navigator?.userAgent.includes('Firefox/') ?? false;

/** Why a technique runs only in Chromium, said once. */
export const ChromiumOnly = {
  a11ySnapshot: 'the a11y-snapshot command reads the accessibility tree over CDP',
} as const;
export type ChromiumOnly = keyof typeof ChromiumOnly;

/** `it`, in Chromium only: elsewhere the test is skipped with `reason` in its title. */
export function itWithChromium(reason: ChromiumOnly, title: string, test: Mocha.Func | Mocha.AsyncFunc): void {
  if (isFirefox) it.skip(`${title} [not in Firefox: ${ChromiumOnly[reason]}]`, test);
  else it(title, test);
}

/**
 * The family names of a computed `font-family`, unquoted. Chromium quotes a name with a space (`"Fira Sans"`) and
 * leaves an identifier bare; Firefox keeps the quotes as written: the names are what the tests mean.
 */
export function fontFamilyNames(computed: string): string[] {
  return computed.split(',').map((name) => name.trim().replace(/^(["'])(.*)\1$/, '$2'));
}
