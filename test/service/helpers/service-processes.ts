/** Service processes (child-service.ts) and a webhook receiver, for the crash and multi-process tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { childEnv, type TestLocation } from './database.js';

/** A webhook receiver recording every delivery; answers from `answers` in order, then 200. */
export async function startReceiver(answers: number[] = []) {
  const received: { id: string; body: string; answered: number }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const answered = answers.shift() ?? 200;
      received.push({ id: String(request.headers['webhook-id']), body, answered });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    answers,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => server.close(),
  };
}

export interface ChildService {
  readonly child: ChildProcess;
  /** The API's origin; empty for a worker. */
  readonly url: string;
  /** Ids of the renders this process started rendering, in order. */
  readonly rendering: string[];
  /** Ids of the chunked renders this process joined. */
  readonly joining: string[];
}

/** Starts child-service.ts in `role` (with more environment variables, e.g. FX_SERVICE_CONCURRENCY) once ready. */
export function startChild(
  location: TestLocation,
  role: 'embedded' | 'api' | 'worker' = 'embedded',
  env: NodeJS.ProcessEnv = {},
): Promise<ChildService> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/service/helpers/child-service.ts', location.dataDir, role],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...childEnv(location), ...env } },
  );
  const rendering: string[] = [];
  const joining: string[] = [];
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const lines = output.split('\n');
      output = lines.pop()!;
      for (const line of lines) {
        const started = /^rendering (\S+)/.exec(line)?.[1];
        if (started) rendering.push(started);
        const joined = /^joining (\S+)/.exec(line)?.[1];
        if (joined) joining.push(joined);
        const url = /^listening (\S+)/.exec(line)?.[1];
        if (url !== undefined || line === 'working') resolve({ child, url: url ?? '', rendering, joining });
      }
    });
    child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
  });
}

export const exited = (child: ChildProcess) =>
  new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve),
  );
