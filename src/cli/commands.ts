/** The command table: what `fx --help` lists and where each command lives (loaded only when it runs). */
import type { Command } from './command.js';

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<{ readonly command: Command }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'init', summary: 'create a starter composition', load: () => import('./init.js') },
  {
    name: 'preview',
    summary: 'serve a project with a live preview that reloads on change',
    load: () => import('./preview.js'),
  },
  { name: 'lint', summary: 'check every composition file of a project', load: () => import('./lint.js') },
  { name: 'metadata', summary: "print a composition's metadata as JSON", load: () => import('./metadata.js') },
  { name: 'types', summary: "print a TypeScript type of a composition's variables", load: () => import('./types.js') },
  {
    name: 'render',
    summary: 'render locally (Chromium + FFmpeg), once or per batch row',
    load: () => import('./render.js'),
  },
  {
    name: 'cloud render',
    summary: 'render on the /v3 service and download the video',
    load: () => import('./cloud-render.js'),
  },
  { name: 'cloud list', summary: 'list your renders, newest first', load: () => import('./cloud-list.js') },
  { name: 'cloud get', summary: 'show a render (and download its video)', load: () => import('./cloud-get.js') },
  { name: 'cloud delete', summary: 'cancel and delete a render', load: () => import('./cloud-delete.js') },
  { name: 'auth login', summary: 'sign in in the browser, or store an API key', load: () => import('./auth-login.js') },
  {
    name: 'auth status',
    summary: 'show the credential in use, its account and usage',
    load: () => import('./auth-status.js'),
  },
  { name: 'auth refresh', summary: 'refresh the signed-in session now', load: () => import('./auth-refresh.js') },
  { name: 'auth logout', summary: 'revoke and forget the stored credential', load: () => import('./auth-logout.js') },
  { name: 'service', summary: 'run the reference /v3 render service', load: () => import('./service.js') },
  { name: 'service api', summary: 'serve the /v3 API only (PostgreSQL)', load: () => import('./service-api.js') },
  {
    name: 'service worker',
    summary: 'run renders only, no HTTP (PostgreSQL)',
    load: () => import('./service-worker.js'),
  },
  {
    name: 'service create-key',
    summary: 'create an API key in the service data folder',
    load: () => import('./service-create-key.js'),
  },
  {
    name: 'service webhook-secret',
    summary: "print (or --rotate) the secret that signs an account's webhooks",
    load: () => import('./service-webhook-secret.js'),
  },
  { name: 'completion', summary: 'print a bash/zsh completion script', load: () => import('./completion.js') },
];

/** The entry whose name the arguments start with (the longest: `service create-key` over `service`). */
export function findCommand(args: readonly string[]): { entry: CommandEntry; rest: string[] } | undefined {
  const matches = COMMANDS.filter((entry) => {
    const words = entry.name.split(' ');
    return words.every((word, index) => args[index] === word);
  });
  const entry = matches.sort((a, b) => b.name.length - a.name.length)[0];
  return entry && { entry, rest: args.slice(entry.name.split(' ').length) };
}

/** The group a word names (`cloud`, `auth`, `service`), when commands start with it. */
export function commandGroup(word: string | undefined): string | undefined {
  return word !== undefined && COMMANDS.some((entry) => entry.name.startsWith(`${word} `)) ? word : undefined;
}

/** Every command, or those of one group (`fx cloud --help`). */
export function topHelp(group?: string): string {
  const listed = group === undefined ? COMMANDS : COMMANDS.filter((entry) => entry.name.split(' ')[0] === group);
  const width = Math.max(...listed.map((entry) => entry.name.length));
  return [
    'fx — author, check and render HTML video compositions',
    '',
    'Usage: fx <command> [flags]    (fx <command> --help for its flags)',
    '',
    'Commands:',
    ...listed.map((entry) => `  ${entry.name.padEnd(width)}  ${entry.summary}`),
    '',
    'Credentials: CLOUD_API_KEY, then RENDER_API_KEY, then ~/.fx/credentials; service URL: CLOUD_API_URL.',
    'Exit codes: 0 ok, 1 failed, 2 usage, 3 input refused, 4 auth, 5 service unreachable or wait ran out, 130 Ctrl-C.',
    '',
  ].join('\n');
}
