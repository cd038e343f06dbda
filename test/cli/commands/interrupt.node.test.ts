/** Ctrl-C (SIGINT) during upload, render and download: exit 130, nothing left behind, and how to resume. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startClientSetup, type ClientSetup } from '../../client/helpers/setup.js';
import { createFfmpegRenderer } from '../../service/helpers/ffmpeg-renderer.js';
import { compositionHtml, startTestService, waitFor, type TestService } from '../../service/helpers/harness.js';
import { baseEnv, fx, tempProject } from '../helpers.js';

const interruptWhen =
  (ready: (stderr: string) => boolean) =>
  (child: import('node:child_process').ChildProcess, output: { stderr: () => string }) => {
    void waitFor(() => (ready(output.stderr()) ? true : undefined), 20_000, 'the moment to interrupt').then(() =>
      child.kill('SIGINT'),
    );
  };

const leftovers = async (dir: string) => (existsSync(join(dir, 'renders')) ? await readdir(join(dir, 'renders')) : []);

describe('fx cloud render, interrupted', () => {
  let project: { path: string; cleanup: () => Promise<void> };
  before(async () => {
    project = await tempProject({ 'index.html': compositionHtml({ duration: 4 }) });
  });
  after(() => project.cleanup());

  test('during upload: exit 130, nothing submitted, nothing written', async () => {
    // A service that takes the upload and never answers.
    const held: import('node:http').ServerResponse[] = [];
    const server: Server = createServer((request, response) => {
      request.resume();
      held.push(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await fx(['cloud', 'render'], {
        env: baseEnv(project.path, { CLOUD_API_URL: url, CLOUD_API_KEY: 'fx_live_test' }),
        cwd: project.path,
        onSpawn: interruptWhen((stderr) => stderr.includes('Uploading')),
      });
      assert.equal(run.code, 130, run.stderr);
      assert.match(run.stderr, /interrupted before the render was submitted/);
      assert.deepEqual(await leftovers(project.path), []);
    } finally {
      held.forEach((response) => response.destroy());
      server.close();
    }
  });

  describe('with a real service', () => {
    let service: TestService;
    before(async () => {
      service = await startTestService({ render: createFfmpegRenderer({ realtime: true }) });
    });
    after(() => service.close());

    test('during the render: exit 130, the render goes on, the hint says `fx cloud get <id> --download`', async () => {
      const run = await fx(['cloud', 'render', '--poll-interval', '0.1'], {
        env: baseEnv(project.path, { CLOUD_API_URL: service.url, CLOUD_API_KEY: service.key }),
        cwd: project.path,
        onSpawn: interruptWhen((stderr) => stderr.includes('submitted rnd_')),
      });
      assert.equal(run.code, 130, run.stderr);
      const id = /submitted (rnd_[A-Za-z0-9_-]+)/.exec(run.stderr)![1]!;
      assert.match(run.stderr, new RegExp(`fx cloud get ${id} --download`));
      assert.deepEqual(await leftovers(project.path), []);
    });

    test('--max-wait running out: exit 5, timeout, and the hint to check later', async () => {
      const run = await fx(['cloud', 'render', '--poll-interval', '0.05', '--max-wait', '0.005', '--json'], {
        env: baseEnv(project.path, { CLOUD_API_URL: service.url, CLOUD_API_KEY: service.key }),
        cwd: project.path,
      });
      assert.equal(run.code, 5, run.stdout + run.stderr);
      const error = run.events.find((event) => event.event === 'error')!;
      assert.equal(error.code, 'timeout');
      assert.match(String(error.hint), /fx cloud get/);
    });
  });

  describe('behind a slow link', () => {
    let setup: ClientSetup;
    before(async () => {
      setup = await startClientSetup();
    });
    after(() => setup.close());

    test('during the download: exit 130 and the partial file is removed', async () => {
      setup.proxy.add({
        method: 'GET',
        path: /^\/v3\/files\//,
        action: { kind: 'trickle', chunkBytes: 512, intervalMs: 50 },
      });
      const small = await tempProject({ 'index.html': compositionHtml({ duration: 0.5 }) });
      try {
        const run = await fx(['cloud', 'render', '--poll-interval', '0.05'], {
          env: baseEnv(small.path, { CLOUD_API_URL: setup.proxy.url, CLOUD_API_KEY: setup.service.key }),
          cwd: small.path,
          onSpawn: (child) => {
            void waitFor(
              async () => ((await leftovers(small.path)).some((name) => name.endsWith('.partial')) ? true : undefined),
              20_000,
              'a partial file',
            ).then(() => child.kill('SIGINT'));
          },
        });
        assert.equal(run.code, 130, run.stderr);
        assert.deepEqual(await leftovers(small.path), []);
        assert.match(run.stderr, /fx cloud get rnd_[A-Za-z0-9_-]+ --download/);
      } finally {
        await small.cleanup();
      }
    });
  });
});
