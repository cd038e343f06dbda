import type { Readable, Writable } from 'node:stream';

/** A CDP event as delivered to listeners. */
export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId: string | undefined;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  method: string;
}

/** A protocol error answered by the browser (`{ error: { code, message } }`), or the connection closing. */
export class CdpError extends Error {
  override name = 'CdpError';
  constructor(
    message: string,
    readonly method: string,
    readonly closed = false,
  ) {
    super(message);
  }
}

/**
 * The Chrome DevTools Protocol over `--remote-debugging-pipe`: messages are JSON terminated by a NUL byte,
 * written to the browser's fd 3 and read from its fd 4. No port is opened, so nothing else can attach, and the
 * connection ends with the process. Flat sessions: a command for a page carries that page's `sessionId`.
 */
export class CdpConnection {
  #nextId = 0;
  #pending = new Map<number, Pending>();
  #listeners = new Set<(event: CdpEvent) => void>();
  #buffered: Buffer[] = [];
  #closed: string | undefined;

  constructor(
    private readonly output: Writable,
    input: Readable,
  ) {
    input.on('data', (chunk: Buffer) => this.#receive(chunk));
    input.on('close', () => this.close('the browser closed the DevTools pipe'));
    input.on('error', () => this.close('the DevTools pipe failed'));
    output.on('error', () => this.close('the DevTools pipe failed'));
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** Sends one command and resolves with its `result`. */
  send<Result = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Result> {
    if (this.#closed) return Promise.reject(new CdpError(`${method}: ${this.#closed}`, method, true));
    const id = ++this.#nextId;
    const message = JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params });
    return new Promise<Result>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, method });
      this.output.write(`${message}\0`);
    });
  }

  /** Listens to every event; returns the function that stops listening. */
  on(listener: (event: CdpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Rejects every pending command; later sends reject at once. */
  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = reason;
    for (const { reject, method } of this.#pending.values()) reject(new CdpError(`${method}: ${reason}`, method, true));
    this.#pending.clear();
  }

  #receive(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      this.#buffered.push(chunk.subarray(start, end));
      const text = Buffer.concat(this.#buffered).toString('utf8');
      this.#buffered = [];
      start = end + 1;
      this.#dispatch(text);
    }
    if (start < chunk.length) this.#buffered.push(chunk.subarray(start));
  }

  #dispatch(text: string): void {
    let message: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
      result?: unknown;
      error?: { message?: string };
    };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message.id === 'number') {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error)
        pending.reject(new CdpError(`${pending.method}: ${message.error.message ?? 'protocol error'}`, pending.method));
      else pending.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method === 'string') {
      const event: CdpEvent = { method: message.method, params: message.params ?? {}, sessionId: message.sessionId };
      for (const listener of this.#listeners) listener(event);
    }
  }
}
