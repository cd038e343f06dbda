/**
 * How the compiler fetches files: each one once per compile, within the size and count limits, composition-named
 * ones only where and as what compile/reads.ts allows, and without cookies.
 */
import { CompileIssueCode } from './codes.js';
import { checkFontBytes, checkType, type ReadRole, type ReadScope } from './reads.js';
import { blobToDataUrl, parseUrl } from '../data.js';
import { FxError } from '../errors.js';
import { isMissingStatus } from './missing-files.js';

/** The code of a file past the size limits names its role: a large image is not a large sub-composition. */
const TOO_LARGE: Readonly<Record<ReadRole, CompileIssueCode>> = {
  entry: CompileIssueCode.tooLarge,
  sub: CompileIssueCode.subTooLarge,
  stylesheet: CompileIssueCode.stylesheetTooLarge,
  script: CompileIssueCode.scriptTooLarge,
  font: CompileIssueCode.fontTooLarge,
  image: CompileIssueCode.imageTooLarge,
};

export interface CompileLimits {
  /** Deepest sub-composition nesting (default 8). */
  readonly depth?: number;
  /** Largest single file in bytes (default 4 MiB). */
  readonly fileBytes?: number;
  /** All files together (default 32 MiB). */
  readonly totalBytes?: number;
  /** Most distinct files fetched, fonts included (default 1000). */
  readonly files?: number;
  /** Most sub-composition instances in all (default 1000): a few small files mounting each other many times fan out fast. */
  readonly instances?: number;
  /** Largest compiled document, in UTF-16 code units — bytes for the ASCII most of it is (default 64 MiB). */
  readonly documentBytes?: number;
}

export const DEFAULT_LIMITS: Required<CompileLimits> = {
  depth: 8,
  fileBytes: 4 * 1024 * 1024,
  totalBytes: 32 * 1024 * 1024,
  files: 1000,
  instances: 1000,
  documentBytes: 64 * 1024 * 1024,
};

/** What loading files needs: the fetch, the rules, the limits and the running counts. */
export interface Loader {
  readonly fetch: typeof fetch;
  readonly scope: ReadScope;
  readonly limits: Required<CompileLimits>;
  readonly signal: AbortSignal | undefined;
  /** Files already fetched in this compile: a source mounted many times is fetched and counted once. */
  readonly files: Map<string, Promise<unknown>>;
  totalBytes: number;
}

/** A file's text, fetched once per compile however many times the composition names it. */
export function loadText(loader: Loader, url: string, role: ReadRole): Promise<string> {
  return once(loader, url, role, () => fetchFile(loader, url, role).then((file) => file.text()));
}

/** A font file as a `data:` URL, fetched once per compile; throws like {@link fetchFile}, or when it is no font. */
export function loadFont(loader: Loader, url: string): Promise<string> {
  return once(loader, url, 'font', async () => {
    const file = await fetchFile(loader, url, 'font');
    await checkFontBytes(file, url);
    return blobToDataUrl(file);
  });
}

/** An image as a `data:` URL, fetched once per compile; throws like {@link fetchFile}. */
export function loadImage(loader: Loader, url: string): Promise<string> {
  return once(loader, url, 'image', async () => blobToDataUrl(await fetchFile(loader, url, 'image')));
}

function once<T>(loader: Loader, url: string, role: ReadRole, load: () => Promise<T>): Promise<T> {
  const key = `${role} ${url}`;
  let result = loader.files.get(key) as Promise<T> | undefined;
  if (result) return result;
  if (loader.files.size >= loader.limits.files) {
    return Promise.reject(
      new FxError(CompileIssueCode.filesTooMany, `the composition names more than ${loader.limits.files} files`),
    );
  }
  loader.files.set(key, (result = load()));
  return result;
}

/**
 * Fetches a file and counts it against the size limits. A missing or oversized file, or one the composition may
 * not read, is an {@link FxError}; nothing outside the scope is requested at all.
 */
async function fetchFile(loader: Loader, url: string, role: ReadRole): Promise<Blob> {
  const codes = {
    missing: role === 'entry' ? CompileIssueCode.entryNotFound : CompileIssueCode.subNotFound,
    large: TOO_LARGE[role],
  };
  loader.scope.check(url, role);
  let response: Response;
  try {
    response = await loader.fetch(url, { signal: loader.signal, credentials: credentialsFor(role) });
  } catch (error) {
    if (loader.signal?.aborted) throw error;
    throw new FxError(codes.missing, fetchFailure(url, error), { cause: error });
  }
  try {
    // A redirect may lead out of the folders the composition may read.
    if (response.redirected && response.url) loader.scope.check(response.url, role);
    if (!response.ok) {
      // A file the project does not have is the one code every surface reports (missing-files.ts).
      const gone = role !== 'entry' && isMissingStatus(response.status);
      throw new FxError(
        gone ? CompileIssueCode.fileMissing : codes.missing,
        `"${url}" answered HTTP ${response.status}${gone ? ': the project has no such file' : ''}`,
        { status: response.status },
      );
    }
    checkType(response, url, role);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > loader.limits.fileBytes)
      throw new FxError(codes.large, `"${url}" is ${declared} bytes; the limit is ${loader.limits.fileBytes}`);
  } catch (error) {
    // The body is not wanted: do not download it.
    response.body?.cancel().catch(() => undefined);
    throw error;
  }
  const file = await response.blob();
  loader.totalBytes += file.size;
  if (file.size > loader.limits.fileBytes || loader.totalBytes > loader.limits.totalBytes) {
    throw new FxError(
      codes.large,
      `"${url}" takes the composition past its size limit (${loader.limits.fileBytes} bytes a file, ${loader.limits.totalBytes} in all)`,
    );
  }
  return file;
}

/**
 * Why a fetch rejected, said so that a user can act on it. A browser hides the cause of a failed request; on another
 * origin it is most often a server that sends no CORS headers, so the message names the header to add.
 */
function fetchFailure(url: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const page = globalThis.location?.origin;
  const origin = parseUrl(url)?.origin;
  if (!page || page === 'null' || !origin || origin === 'null' || origin === page || !(error instanceof TypeError))
    return `"${url}" could not be fetched: ${reason}`;
  return (
    `"${url}" could not be fetched (${reason}). It is on another origin than this page (${page}), so its server must allow this page with CORS: ` +
    `answer with the header "Access-Control-Allow-Origin: ${page}" (or "*"), or serve the file from this page's origin`
  );
}

/**
 * The entry is the host's own choice and may need its cookies; anything the composition names is fetched without
 * them, so a composition cannot pull the host's signed-in responses into its frame.
 */
function credentialsFor(role: ReadRole): RequestCredentials {
  return role === 'entry' ? 'same-origin' : 'omit';
}
