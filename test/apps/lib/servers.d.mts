// Types for the TypeScript tests that reuse servers.mjs (the apps stage itself is plain JavaScript).
export interface StaticServer {
  readonly port: number;
  /** The 4xx/5xx answers given, e.g. `404 /missing.js`. */
  readonly failures: string[];
  close(): Promise<void>;
}

/** Serves `folder` on a free loopback port (index.html for `/`); with `cors`, as a CDN does. */
export function serveStatic(folder: string, options?: { failures?: string[]; cors?: boolean }): Promise<StaticServer>;
