// The request guard in a real browser: with the render's policy, nothing the page does reaches a private address —
// not a redirect, a worker, a service worker, a WebSocket or WebRTC — while the same page without it reaches every
// one (so the test would notice a guard that lets them through). WebSockets fail even to public hosts, whose http
// requests go out through the egress proxy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { BrowserProcess } from '../../src/render/browser.js';
import { resolveCaptureMode } from '../../src/render/chromium.js';
import { RenderNetworkPolicy } from '../../src/render/network/policy.js';
import { RenderWatch } from '../../src/render/watch.js';
import { recordingServer } from './helpers.js';
import { httpTwins, PUBLIC_STAND_IN, scriptedRules } from './rebinding.js';

type Server = Awaited<ReturnType<typeof recordingServer>>;
/** The render's own origin (stands for its project server) and a private server the page must not reach. */
let own: Server;
let target: Server;
let udp: Socket;
let udpMessages = 0;

/** Every way out the page tries, each settling to 'ok', 'failed' or 'timeout' (WebRTC: see the STUN count). */
const attempts = (targetOrigin: string, udpPort: number) => `(async () => {
  const target = ${JSON.stringify(targetOrigin)};
  const settle = (promise) => Promise.race([promise.then(() => 'ok', () => 'failed'), new Promise((resolve) => setTimeout(() => resolve('timeout'), 3000))]);
  const message = (port) => new Promise((resolve, reject) => { port.onmessage = (event) => (event.data === 'ok' ? resolve() : reject()); });
  const results = {};
  results.fetch = await settle(fetch(target + '/from-page'));
  results.redirect = await settle(new Promise((resolve, reject) => { const image = new Image(); image.onload = resolve; image.onerror = reject; image.src = '/redirect'; }));
  const worker = new Worker(URL.createObjectURL(new Blob(["fetch(" + JSON.stringify(target + '/from-worker') + ").then(() => postMessage('ok'), () => postMessage('failed'))"], { type: 'text/javascript' })));
  results.worker = await settle(message(worker));
  results.websocket = await settle(new Promise((resolve, reject) => { const socket = new WebSocket(target.replace('http', 'ws') + '/ws'); socket.onopen = resolve; socket.onerror = reject; }));
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const reply = message(navigator.serviceWorker);
  registration.active.postMessage(target + '/from-sw');
  results.serviceWorker = await settle(reply);
  const peer = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
  peer.createDataChannel('probe');
  await peer.setLocalDescription(await peer.createOffer());
  // STUN goes out while candidates are gathered (counted on the Node side); an unanswered server keeps it going.
  await Promise.race([new Promise((resolve) => { peer.onicegatheringstatechange = () => peer.iceGatheringState === 'complete' && resolve(); }), new Promise((resolve) => setTimeout(resolve, 700))]);
  return results;
})()`;

before(async () => {
  target = await recordingServer(
    (_, response) =>
      void response
        .writeHead(200, { 'content-type': 'image/svg+xml', 'access-control-allow-origin': '*' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'),
  );
  own = await recordingServer((request, response) => {
    if (request.url === '/redirect')
      return void response.writeHead(302, { location: `${target.origin}/redirected.svg` }).end();
    if (request.url === '/sw.js') {
      return void response
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(
          "onmessage = (event) => fetch(event.data).then(() => event.source.postMessage('ok'), () => event.source.postMessage('failed'));",
        );
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title>');
  });
  udp = createSocket('udp4');
  udp.on('message', () => udpMessages++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
});

after(async () => {
  await own.close();
  await target.close();
  udp.close();
});

/** Opens the render's page in a browser under `policy` and runs every attempt. */
async function tryEverything(policy: RenderNetworkPolicy): Promise<Record<string, string>> {
  const watch = new RenderWatch(undefined, 20_000);
  const browser = await BrowserProcess.launch({ mode: resolveCaptureMode('auto'), scale: 1, watch, network: policy });
  try {
    const page = await browser.newPage({ width: 64, height: 64 }, 1, false);
    await page.goto(`${own.origin}/page.html`);
    return await page.evaluate<Record<string, string>>(
      'trying every way out',
      attempts(target.origin, udp.address().port),
    );
  } finally {
    await browser.close();
    watch.dispose();
  }
}

test('with the render policy, no request, WebSocket or STUN packet reaches a private address', async () => {
  const policy = new RenderNetworkPolicy(own.origin, false);
  const results = await tryEverything(policy);
  assert.deepEqual(results, {
    fetch: 'failed',
    redirect: 'failed',
    worker: 'failed',
    websocket: 'failed',
    serviceWorker: 'failed',
  });
  assert.deepEqual(target.requests, []);
  assert.equal(udpMessages, 0, 'no STUN request');
  const blocked = policy.issues().map((found) => [found.code, /"([^"]+)"/.exec(found.message)![1]]);
  assert.deepEqual(
    blocked.sort(),
    ['/from-page', '/from-sw', '/from-worker', '/redirected.svg']
      .map((path) => ['network_request_blocked', `${target.origin}${path}`])
      .sort(),
  );
  // The page's own origin (the project server) was served as usual, the redirect included.
  assert.ok(
    own.requests.some((request) => request.url === '/redirect') &&
      own.requests.some((request) => request.url === '/sw.js'),
  );
});

test('control: unsafeAllowPrivateNetwork lets every one of them through', async () => {
  const results = await tryEverything(new RenderNetworkPolicy(own.origin, true));
  // The target drops WebSocket upgrades, so that one fails even though it got there.
  assert.deepEqual(results, { fetch: 'ok', redirect: 'ok', worker: 'ok', websocket: 'failed', serviceWorker: 'ok' });
  assert.deepEqual(target.requests.map((request) => request.url).sort(), [
    '/from-page',
    '/from-sw',
    '/from-worker',
    '/redirected.svg',
    '/ws',
  ]);
  assert.ok(udpMessages > 0, 'STUN requests arrived');
});

test('a WebSocket fails even to a public host, while http to it goes through', async () => {
  const twins = await httpTwins(
    (_side, _request, response) =>
      void response.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('ok'),
  );
  const policy = new RenderNetworkPolicy(own.origin, false, scriptedRules({ 'public.test': [PUBLIC_STAND_IN] }));
  const watch = new RenderWatch(undefined, 20_000);
  const browser = await BrowserProcess.launch({ mode: resolveCaptureMode('auto'), scale: 1, watch, network: policy });
  try {
    const page = await browser.newPage({ width: 64, height: 64 }, 1, false);
    await page.goto(`${own.origin}/page.html`);
    const results = await page.evaluate<Record<string, string>>(
      'opening a WebSocket',
      `(async () => {
      const origin = 'http://public.test:${twins.port}';
      const fetched = await fetch(origin + '/fetched').then((response) => response.text(), () => 'failed');
      const websocket = await new Promise((resolve) => { const socket = new WebSocket(origin.replace('http', 'ws') + '/ws'); socket.onopen = () => resolve('open'); socket.onerror = () => resolve('failed'); });
      return { fetched, websocket };
    })()`,
    );
    assert.deepEqual(results, { fetched: 'ok', websocket: 'failed' });
    assert.deepEqual(
      twins.public.requests.map((request) => request.url),
      ['/fetched'],
    );
    assert.equal(twins.private.connections, 0);
  } finally {
    await browser.close();
    watch.dispose();
    await twins.close();
  }
});
