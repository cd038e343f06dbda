/**
 * What the panel's copy buttons copy: the values in effect as JSON, and a `fx cloud render` command that renders
 * them. Pure text, so tests (and apps) can read it without a clipboard.
 */

/** The values as the CLI's `--variables` takes them: one line of JSON (newlines in values stay escaped). */
export function valuesJson(values: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(values);
}

/** Characters a POSIX shell word may hold unquoted. */
const SHELL_SAFE = /^[\w@%+=:,./-]+$/;

/**
 * `text` as one POSIX shell word: as it is when only safe characters, else in single quotes (inside which a shell
 * expands nothing), each `'` written as `'\''`. NUL cannot be passed in an argument at all and is refused.
 */
export function shellQuote(text: string): string {
  if (text.includes('\0')) throw new TypeError('a shell argument cannot hold a NUL character');
  return SHELL_SAFE.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command that renders the project in `dir` with `values` (POSIX shells: sh, bash, zsh). */
export function renderCommand(dir: string, values: Readonly<Record<string, unknown>>): string {
  return `fx cloud render ${shellQuote(dir)} --variables ${shellQuote(valuesJson(values))}`;
}
