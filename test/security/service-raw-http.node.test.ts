// Issue 8 item 18: what a client gets, and what the log says, when HTTP goes wrong below the routes. Over-long
// headers got Node's bare 431 without the `{ error }` body every other refusal carries; a client hanging up
// mid-upload was logged as a 500 with a stack trace. Both driven with raw sockets.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { startTestService, waitFor, type TestService } from '../service/helpers/harness.js';

let service: TestService;
const logged: { message: string; details?: Record<string, unknown> }[] = [];
before(async () => {
  service = await startTestService({ log: (message, details) => logged.push({ message, details }) });
});
after(() => service.close());

function open(): Promise<Socket> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `request` as is and reads until the server closes the connection. */
async function exchange(request: string): Promise<string> {
  const socket = await open();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(request);
  await new Promise((resolve) => socket.once('close', resolve));
  return answer;
}

/** Status and parsed JSON body of a raw HTTP/1.1 answer. */
function parse(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = body;
  }
  return { status, headers: head, body: json };
}

test('over-long headers answer 431 with the error body', async () => {
  const answer = parse(
    await exchange(`GET /v3/account HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`),
  );
  assert.equal(answer.status, 431, answer.headers);
  assert.match(answer.headers, /content-type: application\/json/i);
  assert.equal(
    (answer.body as { error: { code: string } }).error?.code,
    'headers_too_large',
    JSON.stringify(answer.body),
  );
});

test('a request HTTP cannot parse answers 400 with the error body', async () => {
  const answer = parse(await exchange('NOT A REQUEST\r\n\r\n'));
  assert.equal(answer.status, 400, answer.headers);
  assert.equal(
    (answer.body as { error: { code: string } }).error?.code,
    'request_malformed',
    JSON.stringify(answer.body),
  );
});

test('a client hanging up mid-upload is logged as a client abort, not as a failed request', async () => {
  logged.length = 0;
  const socket = await open();
  socket.on('error', () => undefined);
  socket.write(
    `POST /v3/assets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${service.key}\r\nContent-Type: application/zip\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`,
  );
  socket.write(Buffer.alloc(256 * 1024));
  await new Promise((resolve) => setTimeout(resolve, 200));
  socket.destroy();
  const aborted = await waitFor(
    () => logged.find((line) => line.message === 'client aborted'),
    5_000,
    'the client abort to be logged',
  ).catch((error: Error) => assert.fail(`${error.message}; logged: ${JSON.stringify(logged).slice(0, 600)}`));
  assert.equal(aborted.details?.path, '/v3/assets');
  assert.equal(JSON.stringify(aborted.details).includes('    at '), false, 'no stack trace');
  assert.deepEqual(
    logged.filter((line) => line.message === 'request failed'),
    [],
  );
  assert.deepEqual(await service.storedAssetEntries(), []);
});
