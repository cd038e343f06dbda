/** What the compile tests share: a project served from a map of files, and the markup of an entry and a card. */
import {
  compileComposition,
  type CompileOptions,
  type CompiledComposition,
} from '../../../src/runtime/compile/compile.js';
import { isFxError } from '../../../src/runtime/errors.js';

export const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
// A folder of the test server nobody serves: every file comes from the injected fetch.
const BASE = new URL('/virtual/', location.href).href;
export const at = (path: string) => new URL(path, BASE).href;
/** The content type a static server gives a path: the compiler checks it per role. */
const typeOf = (url: string) =>
  ({ css: 'text/css', js: 'text/javascript' })[url.split('?')[0]!.split('.').pop()!] ?? 'text/html';
/** A 200 response typed for `url`. */
export const typed = (url: string, body: string) => new Response(body, { headers: { 'content-type': typeOf(url) } });

/** A fetch over a map of path → body (or Response); anything else answers 404. Records what was asked. */
export function filesFetch(
  files: Record<string, string | (() => Response | Promise<Response>)>,
  asked: string[] = [],
): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(init?.method === 'HEAD' ? `HEAD ${url}` : url);
    const path = url.startsWith(BASE) ? url.slice(BASE.length) : url;
    const file = files[path];
    if (file === undefined) return new Response('not here', { status: 404 });
    return typeof file === 'string' ? typed(url, file) : file();
  };
}

export function compile(
  files: Record<string, string | (() => Response | Promise<Response>)>,
  options: Partial<CompileOptions> = {},
  entry = 'index.html',
): Promise<CompiledComposition> {
  return compileComposition(at(entry), { runtimeUrl: RUNTIME_URL, fetch: filesFetch(files), ...options });
}

export async function compileError(
  files: Record<string, string | (() => Response)>,
  options: Partial<CompileOptions> = {},
): Promise<string> {
  try {
    await compile(files, options);
  } catch (error) {
    if (isFxError(error)) return error.code;
    throw error;
  }
  throw new Error('expected the compile to fail');
}

export const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
export const entry = (body: string, head = '', declarations?: unknown[]) =>
  `<!doctype html><html${declarations ? ` data-composition-variables='${JSON.stringify(declarations)}'` : ''}><head>${head}</head><body>` +
  `<div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="2">${body}</div></body></html>`;
export const NAME = [{ id: 'name', type: 'string', label: 'Name', default: 'Nobody' }];
export const card = (extra = '') =>
  `<template><div data-composition-id="card" data-duration="1" data-composition-variables='${JSON.stringify(NAME)}'>` +
  `<p class="name" data-var-text="name">x</p>${extra}</div></template>`;
