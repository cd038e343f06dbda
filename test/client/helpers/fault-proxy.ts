/**
 * An HTTP proxy in front of the reference service that injects the faults a client meets on real networks:
 * a connection cut after the service received the request (before or after it answered), canned answers (401,
 * 429 with Retry-After, 503 bursts, an expired signed link, malformed bodies), and a log of every request seen.
 * Start the service with `publicBaseUrl: proxy.url` so its signed links point back at the proxy.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultAction =
  /** Forward, wait for the service's whole answer, then cut the client's connection: the work is done, the answer lost. */
  | { readonly kind: 'drop-after-response' }
  /** Forward the whole request, then cut the client's connection at once: the service is still working on it. */
  | { readonly kind: 'drop-after-body' }
  /** Forward, then send the service's status, headers and half its body, and cut the connection. */
  | { readonly kind: 'cut-mid-body' }
  /** Forward, then send the service's answer `chunkBytes` at a time, one chunk every `intervalMs` (a slow download). */
  | { readonly kind: 'trickle'; readonly chunkBytes: number; readonly intervalMs: number }
  /** Answer without forwarding. */
  | {
      readonly kind: 'respond';
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: string | Uint8Array;
    };

export interface Fault {
  readonly method?: string;
  /** Matched against the path with its query. */
  readonly path: RegExp;
  /** How many matching requests it applies to. Default 1. */
  readonly times?: number;
  readonly action: FaultAction;
}

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The fault applied, if any. */
  readonly fault: FaultAction['kind'] | undefined;
  readonly at: number;
}

export interface FaultProxy {
  readonly url: string;
  /** Every request, in arrival order. */
  readonly seen: SeenRequest[];
  /** Queues a fault; faults apply in the order added, each to its next `times` matching requests. */
  add(fault: Fault): void;
  /** Sets the service requests are forwarded to. */
  forwardTo(upstream: string): void;
  /** Requests seen whose method and path match. */
  matching(method: string, path: RegExp): SeenRequest[];
  close(): Promise<void>;
}

/** Starts the proxy; it forwards to `upstream` once `forwardTo` named it (so the service can be told the proxy's URL first). */
export async function startFaultProxy(): Promise<FaultProxy> {
  let target: URL | undefined;
  const faults: { fault: Fault; left: number }[] = [];
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();

  const take = (method: string, path: string): FaultAction | undefined => {
    const entry = faults.find(
      ({ fault, left }) => left > 0 && (fault.method === undefined || fault.method === method) && fault.path.test(path),
    );
    if (!entry) return undefined;
    entry.left--;
    return entry.fault.action;
  };

  const forward = (incoming: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: target!.hostname,
          port: target!.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, connection: 'close' },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () =>
            resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks) }),
          );
          answer.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = incoming.method!;
    const path = incoming.url!;
    const action = take(method, path);
    seen.push({ method, path, headers: incoming.headers, fault: action?.kind, at: Date.now() });
    if (action?.kind === 'respond') {
      response.writeHead(action.status, action.headers ?? {}).end(action.body ?? '');
      return;
    }
    const answer = forward(incoming, body);
    if (action?.kind === 'drop-after-body') {
      answer.catch(() => {});
      // Give the service a moment to start on it, so the retry races a request in flight.
      setTimeout(() => incoming.socket.destroy(), 20);
      return;
    }
    const { status, headers, body: answerBody } = await answer;
    if (action?.kind === 'drop-after-response') {
      incoming.socket.destroy();
      return;
    }
    const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...rest } = headers;
    response.writeHead(status, { ...rest, 'content-length': String(answerBody.length) });
    if (action?.kind === 'cut-mid-body') {
      response.write(answerBody.subarray(0, Math.floor(answerBody.length / 2)), () => incoming.socket.destroy());
      return;
    }
    if (action?.kind !== 'trickle') return void response.end(answerBody);
    for (let at = 0; at < answerBody.length && !response.destroyed; at += action.chunkBytes) {
      response.write(answerBody.subarray(at, at + action.chunkBytes));
      await new Promise((resolve) => setTimeout(resolve, action.intervalMs));
    }
    response.end();
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch(() => incoming.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    forwardTo: (upstream) => {
      target = new URL(upstream);
    },
    add: (fault) => faults.push({ fault, left: fault.times ?? 1 }),
    matching: (method, path) => seen.filter((request) => request.method === method && path.test(request.path)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
