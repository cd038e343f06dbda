// `npm start` for the demo's end-to-end tests, with no browser: scripts/start.mjs --no-build (npm test built dist/
// already) on free ports with its own service data. helpers.ts adds a Chromium; the WebKit test drives its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../service/helpers/oauth-flow.js';
import { tempDir } from '../render/helpers.js';

export interface DemoServer {
  /** The demo page. */
  readonly url: string;
  /** Where files written by a test go (removed by `stop`). */
  readonly dir: string;
  stop(): Promise<void>;
}

/** Starts `scripts/start.mjs --no-build`; resolves once the page and the service both listen. */
export async function startDemoServer(): Promise<DemoServer> {
  const dir = await tempDir('fx-demo-test-');
  const [port, servicePort] = [await freePort(), await freePort()];
  const start: ChildProcess = spawn('node', ['scripts/start.mjs', '--no-build'], {
    env: {
      ...process.env,
      PORT: String(port),
      FX_SERVICE_PORT: String(servicePort),
      FX_SERVICE_DATA_DIR: join(dir.path, 'service'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /fx demo:\s+(\S+)/.exec(output)?.[1];
      // Ready once the service is listening too.
      if (found && /render service listening/.test(output)) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    start.stdout!.on('data', read);
    start.stderr!.on('data', read);
    start.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return {
    url,
    dir: dir.path,
    async stop() {
      start.kill('SIGTERM');
      await dir.cleanup();
    },
  };
}
