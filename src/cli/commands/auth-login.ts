/** `fx auth login`: browser sign-in (PKCE, loopback redirect), or `--api-key` from a hidden prompt or stdin. */
import { spawn } from 'node:child_process';
import { checkApiKey } from '../../auth/api-key.js';
import { DEFAULT_LOGIN_TIMEOUT_MS } from '../../auth/node/loopback-sign-in.js';
import { resolveNodeCredentials } from '../../auth/node/resolve.js';
import { StoreKey } from '../../auth/store.js';
import { numberFlag } from '../args.js';
import { booleanFlag, type Command, type CommandContext } from '../command.js';
import { cliSession } from '../credentials.js';
import { OutputEvent } from '../output.js';
import { askHidden } from '../prompt.js';

export const command: Command = {
  name: 'auth login',
  summary:
    'Signs in: opens the browser at the service sign-in page and catches the answer on a loopback port; or stores an API key (for CI and headless machines).',
  flags: {
    'api-key': { type: 'boolean', description: 'store an API key: typed at a hidden prompt, or piped on stdin' },
    'no-browser': {
      type: 'boolean',
      description: 'only print the sign-in URL (open it anywhere that can reach this machine)',
    },
    timeout: {
      type: 'string',
      value: '<s>',
      description: `seconds to wait for the sign-in (default ${DEFAULT_LOGIN_TIMEOUT_MS / 1000})`,
    },
  },
  flagRules: [
    { flag: 'no-browser', not: 'api-key', why: 'storing an API key opens no browser' },
    { flag: 'timeout', not: 'api-key', why: 'only the browser sign-in waits' },
  ],
  notes: [
    'Credentials go to ~/.fx/credentials (mode 0600); the service is CLOUD_API_URL (default http://127.0.0.1:8787).',
  ],
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out, env } = context;
  // The file is written whatever the environment says; CLOUD_API_URL says which service the credential is for.
  const resolved = await resolveNodeCredentials({ env: { CLOUD_API_URL: env.CLOUD_API_URL } });
  const { store, apiUrl } = resolved;
  if (booleanFlag(context, 'api-key')) {
    const typed = context.stdin.isTTY ? await askHidden(context.stdin, 'API key: ') : await readAll(context.stdin);
    const key = checkApiKey('API key', typed.trim());
    await store.set(StoreKey.apiKey, key);
    await store.set(StoreKey.apiUrl, apiUrl);
    out.event(OutputEvent.result, { stored: 'api_key', path: store.path, api_url: apiUrl });
    out.line(`API key stored in ${store.path} (for ${apiUrl})`);
    if (env.CLOUD_API_KEY || env.RENDER_API_KEY)
      out.warning('CLOUD_API_KEY or RENDER_API_KEY is set and is used before the stored key');
    return;
  }
  const timeoutSeconds = numberFlag('timeout', context.values.timeout, 3600);
  const session = cliSession(resolved);
  const tokens = await session.signIn({
    timeoutMs: timeoutSeconds === undefined ? DEFAULT_LOGIN_TIMEOUT_MS : timeoutSeconds * 1000,
    signal: context.signal,
    onUrl: (url) => {
      out.event(OutputEvent.info, { message: 'open this URL to sign in', url: url.href });
      out.note(`Open this URL to sign in:\n\n  ${url.href}\n`);
      if (!booleanFlag(context, 'no-browser')) openBrowser(url.href);
    },
  });
  // A stored API key would win over the sign-in: the newest login is the one the user means.
  await store.delete(StoreKey.apiKey);
  await store.set(StoreKey.apiUrl, apiUrl);
  out.event(OutputEvent.result, {
    stored: 'oauth',
    path: store.path,
    api_url: apiUrl,
    subject: tokens.subject ?? null,
  });
  out.line(`signed in${tokens.subject ? ` as ${tokens.subject}` : ''} (${apiUrl}); credentials in ${store.path}`);
}

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Best effort: the platform's opener, detached; when there is none the printed URL is the way. */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The URL is printed above.
  }
}
