/**
 * Readiness: whether this process can do its work now. Each dependency it uses is checked with a deadline (a
 * database that stopped answering must turn readiness off within seconds, not after a TCP timeout); the answer
 * names each check. Why one failed goes to the log, never into the answer, which anyone who reaches the port reads.
 */
import { ServiceRole } from '../config.js';
import type { ServiceContext } from '../context.js';
import { chromiumRuns, ffmpegRuns } from './renderer-tools.js';

/** The checks, said once: the names readiness answers with. */
export const ReadinessCheck = {
  database: 'database',
  storage: 'storage',
  queue: 'queue',
  chromium: 'chromium',
  ffmpeg: 'ffmpeg',
} as const;
export type ReadinessCheck = (typeof ReadinessCheck)[keyof typeof ReadinessCheck];

export interface CheckResult {
  readonly name: ReadinessCheck;
  readonly ok: boolean;
  readonly ms: number;
}

export interface Readiness {
  readonly ready: boolean;
  readonly checks: readonly CheckResult[];
}

const CHECK_TIMEOUT_MS = 2_000;
/** A key no file is stored under: reading it asks the storage for nothing and gets "none" (S3: one GET, 404). */
const PROBE_KEY = 'readiness/probe';

/** The checks of `context`'s role: a process that renders also needs the renderer's programs. */
function checksOf(context: ServiceContext): [ReadinessCheck, () => Promise<unknown>][] {
  const { config } = context;
  const checks: [ReadinessCheck, () => Promise<unknown>][] = [
    [ReadinessCheck.database, () => context.pingDatabase()],
    [ReadinessCheck.storage, () => context.storage.read(PROBE_KEY)],
  ];
  if (context.queue.ping) checks.push([ReadinessCheck.queue, () => context.queue.ping!()]);
  if (config.role !== ServiceRole.api)
    checks.push(
      [ReadinessCheck.chromium, () => chromiumRuns(config.renderOptions.capture, config.now())],
      [ReadinessCheck.ffmpeg, () => ffmpegRuns(config.now())],
    );
  return checks;
}

export async function readiness(context: ServiceContext): Promise<Readiness> {
  const checks = await Promise.all(
    checksOf(context).map(async ([name, check]): Promise<CheckResult> => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([check(), deadline]);
        return { name, ok: true, ms: Math.round(performance.now() - started) };
      } catch (error) {
        context.config.log('readiness check failed', { check: name, error: String(error) });
        context.events.emit('readinessCheckFailed', { check: name, error: String(error) });
        return { name, ok: false, ms: Math.round(performance.now() - started) };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: checks.every((check) => check.ok), checks };
}
