// The DevTools pipe and the frame capture policy, against a scripted fake browser on in-memory streams.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { isFxError } from '../../src/runtime/errors.js';
import { CdpConnection, CdpError } from '../../src/render/cdp.js';
import { BrowserPage } from '../../src/render/page.js';
import { RenderWatch } from '../../src/render/watch.js';

interface Command {
  id: number;
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

/** A fake browser end of `--remote-debugging-pipe`: NUL-terminated JSON both ways, answers from `respond`. */
function fakeBrowser(respond: (command: Command) => Record<string, unknown> | { error: string } | undefined) {
  const toBrowser = new PassThrough();
  const fromBrowser = new PassThrough();
  const received: Command[] = [];
  let buffered = '';
  toBrowser.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\0'); end !== -1; end = buffered.indexOf('\0')) {
      const command = JSON.parse(buffered.slice(0, end)) as Command;
      buffered = buffered.slice(end + 1);
      received.push(command);
      const answer = respond(command);
      if (answer === undefined) continue;
      const reply =
        'error' in answer && typeof answer.error === 'string'
          ? { id: command.id, error: { message: answer.error } }
          : { id: command.id, result: answer };
      fromBrowser.write(`${JSON.stringify(reply)}\0`);
    }
  });
  return { connection: new CdpConnection(toBrowser, fromBrowser), fromBrowser, received };
}

test('sends commands with ids and session, and matches replies split across chunks', async () => {
  const toBrowser = new PassThrough();
  const fromBrowser = new PassThrough();
  const connection = new CdpConnection(toBrowser, fromBrowser);
  const sent: string[] = [];
  toBrowser.on('data', (chunk: Buffer) => sent.push(chunk.toString()));
  const first = connection.send('Runtime.evaluate', { expression: '1' }, 'session-1');
  const second = connection.send('Browser.getVersion');
  const reply = `${JSON.stringify({ id: 2, result: { product: 'Fake' } })}\0${JSON.stringify({ id: 1, result: { value: 1 } })}\0`;
  fromBrowser.write(reply.slice(0, 10));
  fromBrowser.write(reply.slice(10, 40));
  fromBrowser.write(reply.slice(40));
  assert.deepEqual(await second, { product: 'Fake' });
  assert.deepEqual(await first, { value: 1 });
  assert.deepEqual(JSON.parse(sent[0]!.replace(/\0$/, '')), {
    id: 1,
    method: 'Runtime.evaluate',
    params: { expression: '1' },
    sessionId: 'session-1',
  });
});

test('delivers events to listeners and protocol errors as CdpError', async () => {
  const { connection, fromBrowser } = fakeBrowser((command) => ({ error: `${command.method} is not known` }));
  const events: string[] = [];
  connection.on((event) => events.push(`${event.method}@${event.sessionId}`));
  fromBrowser.write(`${JSON.stringify({ method: 'Page.loadEventFired', params: {}, sessionId: 's' })}\0not json\0`);
  await assert.rejects(
    connection.send('Nope.nothing'),
    (error) => error instanceof CdpError && !error.closed && /Nope.nothing is not known/.test(error.message),
  );
  assert.deepEqual(events, ['Page.loadEventFired@s']);
});

test('a closed pipe rejects pending and later commands as closed', async () => {
  const { connection, fromBrowser } = fakeBrowser(() => undefined);
  const pending = connection.send('Browser.getVersion');
  fromBrowser.destroy();
  await assert.rejects(pending, (error) => error instanceof CdpError && error.closed);
  await assert.rejects(connection.send('Browser.getVersion'), (error) => error instanceof CdpError && error.closed);
});

test('BeginFrame without an image is asked again after short waits', async () => {
  let frames = 0;
  const { connection, received } = fakeBrowser((command) => {
    if (command.method !== 'HeadlessExperimental.beginFrame') return {};
    frames++;
    return frames <= 3
      ? { hasDamage: false }
      : { hasDamage: true, screenshotData: Buffer.from('jpeg!').toString('base64') };
  });
  const watch = new RenderWatch(undefined, 5000);
  const page = new BrowserPage(connection, 'session', 'begin-frame', watch);
  const started = performance.now();
  const image = await page.capture('jpeg', 80);
  assert.equal(image.toString(), 'jpeg!');
  assert.equal(frames, 4);
  assert.ok(performance.now() - started >= 80, 'waited 10 + 25 + 50 ms between the attempts');
  assert.deepEqual(received.at(-1)!.params, { screenshot: { format: 'jpeg', quality: 80, optimizeForSpeed: true } });
  assert.equal(received.at(-1)!.sessionId, 'session');
});

test('a browser that never returns an image fails the frame with frame_capture_failed', async () => {
  const { connection } = fakeBrowser(() => ({ hasDamage: false }));
  const page = new BrowserPage(connection, 'session', 'begin-frame', new RenderWatch(undefined, 5000));
  await assert.rejects(page.capture('png', 0), (error) => isFxError(error, 'frame_capture_failed'));
});

test('the screenshot path asks Page.captureScreenshot, optimised for speed', async () => {
  const { connection, received } = fakeBrowser(() => ({ data: Buffer.from('png!').toString('base64') }));
  const page = new BrowserPage(connection, 'session', 'screenshot', new RenderWatch(undefined, 5000));
  assert.equal((await page.capture('png', 0)).toString(), 'png!');
  assert.deepEqual(
    received.map((command) => [command.method, command.params]),
    [['Page.captureScreenshot', { format: 'png', optimizeForSpeed: true }]],
  );
});

test('a command the browser never answers fails with render_timeout', async () => {
  const { connection } = fakeBrowser(() => undefined);
  const page = new BrowserPage(connection, 'session', 'begin-frame', new RenderWatch(undefined, 50));
  await assert.rejects(
    page.capture('jpeg', 80),
    (error) =>
      isFxError(error, 'render_timeout') && /capturing a frame took longer than 50 ms/.test((error as Error).message),
  );
});
