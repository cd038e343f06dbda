// DNS rebinding on one machine: every local address is private, so tests let 127.0.0.2 count as public (the rest of
// loopback stays private) and answer host names from a script — "public" for the check, private afterwards. Two
// servers on the same port, one on each address, show which one a request reached.
import type { LookupAddress } from 'node:dns';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createTcpServer, isIP, type AddressInfo, type Server, type Socket } from 'node:net';
import { isPrivateAddress, type AddressRules } from '../../src/render/network/public-address.js';

/** Stands for a public address: reachable on this machine, yet outside what the tests treat as private. */
export const PUBLIC_STAND_IN = '127.0.0.2';
export const PRIVATE_ADDRESS = '127.0.0.1';

export interface ScriptedRules extends AddressRules {
  /** Lookups asked so far, per host name. */
  readonly lookups: Map<string, number>;
}

/**
 * Rules whose resolver answers each named host with its scripted answers in turn (the last one from then on; an
 * answer of several addresses is written `a,b`) and fails for other names; 127.0.0.2 is public, everything else as
 * `isPrivateAddress` says.
 */
export function scriptedRules(answers: Record<string, readonly string[]>): ScriptedRules {
  const lookups = new Map<string, number>();
  return {
    lookups,
    isPrivate: (address) => address !== PUBLIC_STAND_IN && isPrivateAddress(address),
    resolve: async (hostname) => {
      const script = answers[hostname.toLowerCase()];
      const count = lookups.get(hostname) ?? 0;
      lookups.set(hostname, count + 1);
      if (!script) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      const answer = script[Math.min(count, script.length - 1)]!;
      return answer.split(',').map((address): LookupAddress => ({ address, family: isIP(address) }));
    },
  };
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface Side {
  /** TCP connections accepted. */
  connections: number;
  /** HTTP requests (HTTP twins) or the first bytes of each connection (TCP twins). */
  readonly requests: RecordedRequest[];
  readonly firstBytes: Buffer[];
}

export interface Twins {
  readonly port: number;
  readonly public: Side;
  readonly private: Side;
  close(): Promise<void>;
}

const newSide = (): Side => ({ connections: 0, requests: [], firstBytes: [] });

/** Two HTTP servers on one port, on 127.0.0.2 ("public") and 127.0.0.1 (private). */
export function httpTwins(
  respond: (side: 'public' | 'private', request: IncomingMessage, response: ServerResponse) => void,
): Promise<Twins> {
  return twins((name, side) => {
    const server = createHttpServer((request, response) => {
      side.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
      respond(name, request, response);
    });
    server.on('upgrade', (request: IncomingMessage, socket) => {
      side.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
      socket.destroy();
    });
    return server;
  });
}

/** Two TCP servers on one port that record the first bytes of each connection and close it (a TLS stand-in). */
export function tcpTwins(): Promise<Twins> {
  return twins((_, side) =>
    createTcpServer((socket) => {
      socket.once('data', (bytes: Buffer) => {
        side.firstBytes.push(bytes);
        socket.destroy();
      });
      socket.on('error', () => undefined);
    }),
  );
}

async function twins(make: (name: 'public' | 'private', side: Side) => Server): Promise<Twins> {
  for (let attempt = 0; ; attempt++) {
    const sides = { public: newSide(), private: newSide() };
    const sockets = new Set<Socket>();
    const servers = (['private', 'public'] as const).map((name) => {
      const server = make(name, sides[name]);
      server.on('connection', (socket: Socket) => {
        sides[name].connections++;
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      return server;
    });
    const closeAll = async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map(close));
    };
    const [privateServer, publicServer] = servers as [Server, Server];
    await listen(privateServer, PRIVATE_ADDRESS, 0);
    const { port } = privateServer.address() as AddressInfo;
    try {
      await listen(publicServer, PUBLIC_STAND_IN, port);
    } catch (error) {
      await closeAll();
      if (attempt < 5) continue;
      throw error;
    }
    return { port, ...sides, close: closeAll };
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
}
