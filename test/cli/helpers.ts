/**
 * Runs the real `fx` from its sources (src/cli/fx.ts through tsx, as the bin runs its bundle) as a child process and
 * collects what it printed. The bundled, installed command is test/cli/global-install.node.test.ts's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FX = join(ROOT, 'src/cli/fx.ts');
// Absolute, so a child whose working folder is a temp folder still finds tsx.
const TSX = import.meta.resolve('tsx');

export interface FxRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as NDJSON (with `--json`). */
  readonly events: Record<string, unknown>[];
}

export interface FxOptions {
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  /** Written to stdin, then stdin is closed. */
  readonly input?: string;
  /** Called once the child is running (e.g. to send it SIGINT). */
  readonly onSpawn?: (child: ChildProcess, output: { stdout: () => string; stderr: () => string }) => void;
}

/** A clean environment: no credentials of the machine, HOME in a temp folder, no colours forced. */
export function baseEnv(
  home: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: home, NO_COLOR: undefined, ...extra };
}

export function fx(args: readonly string[], options: FxOptions = {}): Promise<FxRun> {
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(
      Object.entries(options.env ?? { PATH: process.env.PATH }).filter(([, value]) => value !== undefined),
    ) as Record<string, string>;
    const child = spawn(process.execPath, ['--import', TSX, FX, ...args], {
      cwd: options.cwd ?? ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const events = stdout
        .split('\n')
        .filter((line) => line.startsWith('{"event":'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, signal, stdout, stderr, events });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
    options.onSpawn?.(child, { stdout: () => stdout, stderr: () => stderr });
  });
}

/** A temp folder with `files` written into it. */
export async function tempProject(
  files: Record<string, string> = {},
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'fx-cli-test-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(path, name)), { recursive: true });
    await writeFile(join(path, name), content);
  }
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

export const eventsOf = (run: FxRun, event: string) => run.events.filter((found) => found.event === event);
