/** The command table: what `fx --help` lists and where each command lives (loaded only when it runs). */
import type { Command } from './command.js';

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<{ readonly command: Command }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'init', summary: 'create a starter composition', load: () => import('./commands/init.js') },
  {
    name: 'preview',
    summary: 'serve a project with a live preview that reloads on change',
    load: () => import('./commands/preview.js'),
  },
  { name: 'lint', summary: 'check every composition file of a project', load: () => import('./commands/lint.js') },
  { name: 'metadata', summary: "print a composition's metadata as JSON", load: () => import('./commands/metadata.js') },
  {
    name: 'types',
    summary: "print a TypeScript type of a composition's variables",
    load: () => import('./commands/types.js'),
  },
  {
    name: 'render',
    summary: 'render locally (Chromium + FFmpeg), once or per batch row',
    load: () => import('./commands/render.js'),
  },
  {
    name: 'cloud render',
    summary: 'render on the /v3 service and download the video',
    load: () => import('./commands/cloud-render.js'),
  },
  { name: 'cloud list', summary: 'list your renders, newest first', load: () => import('./commands/cloud-list.js') },
  {
    name: 'cloud get',
    summary: 'show a render (and download its video)',
    load: () => import('./commands/cloud-get.js'),
  },
  { name: 'cloud delete', summary: 'cancel and delete a render', load: () => import('./commands/cloud-delete.js') },
  {
    name: 'auth login',
    summary: 'sign in in the browser, or store an API key',
    load: () => import('./commands/auth-login.js'),
  },
  {
    name: 'auth status',
    summary: 'show the credential in use, its account and usage',
    load: () => import('./commands/auth-status.js'),
  },
  {
    name: 'auth refresh',
    summary: 'refresh the signed-in session now',
    load: () => import('./commands/auth-refresh.js'),
  },
  {
    name: 'auth logout',
    summary: 'revoke and forget the stored credential',
    load: () => import('./commands/auth-logout.js'),
  },
  { name: 'service', summary: 'run the reference /v3 render service', load: () => import('./commands/service.js') },
  {
    name: 'service api',
    summary: 'serve the /v3 API only (PostgreSQL)',
    load: () => import('./commands/service-api.js'),
  },
  {
    name: 'service worker',
    summary: 'run renders only, no HTTP (PostgreSQL)',
    load: () => import('./commands/service-worker.js'),
  },
  {
    name: 'service create-key',
    summary: 'create an API key in the service data folder',
    load: () => import('./commands/service-create-key.js'),
  },
  {
    name: 'service rotate-signing-key',
    summary: "replace the OAuth server's signing key (old tokens stay valid)",
    load: () => import('./commands/service-rotate-signing-key.js'),
  },
  {
    name: 'service check-config',
    summary: 'check and print the settings a service process would start with',
    load: () => import('./commands/service-check-config.js'),
  },
  {
    name: 'service backup',
    summary: "copy an embedded service's database, files and keys into a folder, while it runs",
    load: () => import('./commands/service-backup.js'),
  },
  {
    name: 'service restore',
    summary: 'restore a backup into a new data folder',
    load: () => import('./commands/service-restore.js'),
  },
  {
    name: 'service webhook-secret',
    summary: "print (or --rotate) the secret that signs an account's webhooks",
    load: () => import('./commands/service-webhook-secret.js'),
  },
  { name: 'completion', summary: 'print a bash/zsh completion script', load: () => import('./commands/completion.js') },
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
