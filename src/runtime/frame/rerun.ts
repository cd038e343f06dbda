/**
 * Runs a composition's body again in place, so new values reach scripts that read them once at load without a new
 * document: the body goes back to its compiled markup and its scripts run again, in order, in one task with the
 * playhead applied after them (see `Player.rerun`). A reload does the same in a fresh frame at several times the
 * cost. Only what reruns faithfully is rerun:
 * - every script that read the values was an inline classic script of the body (`LoadReaders`);
 * - the body's scripts are inline classic ones (data blocks aside): a fetched script would run a task later, after a
 *   paint of the half-built body; a module may not run twice;
 * - its media elements are the ones on stage, which it keeps (new ones would paint empty while they load): a
 *   script that made media of its own leaves it to a reload; no `iframe`, `object` or `embed` (they would load
 *   again), and no `document.write` (it would replace the loaded document);
 * - no top-level `let`, `const` or `class` declared again: the body's last script runs inside a block (its own
 *   declarations stay its own; no script after it could name them), and a body where an earlier one declares them is
 *   left to a reload (a later script may name them).
 * A script that throws while rerunning makes the rerun fail, and the caller reloads. What the first run set up outside
 * the body stays, as a reload would not keep it: globals (the rerun overwrites most) and listeners on the window or
 * the document (a video composition's seldom act once loaded; the first run's act on elements no longer shown).
 */

/** `type`s a browser runs as a classic script (the common ones; any other is data, or a module). */
const CLASSIC_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'text/ecmascript',
  'application/ecmascript',
]);
const LOAD_EVENTS = new Set(['DOMContentLoaded', 'load']);
const REFUSED_MARKUP = 'iframe, object, embed';
const MEDIA = 'video, audio';
const WRITES = /\bdocument\s*\.\s*write(ln)?\b/;
const LEXICAL = /^(?:let|const|class)\b/;

const isClassic = (script: HTMLScriptElement) => CLASSIC_TYPES.has(script.type.trim().toLowerCase());
const isInlineClassic = (script: HTMLScriptElement) => isClassic(script) && !script.hasAttribute('src');

/**
 * Which scripts read the top-level values while the document loaded (`document.currentScript` at each read): all
 * must be inline classic scripts of the body for a rerun to reproduce them. A read from anywhere else (a module, a
 * listener, a timer, a fetched script) leaves it to a reload.
 */
export class LoadReaders {
  #scripts = new Set<HTMLScriptElement>();
  #elsewhere = false;

  record(): void {
    const script = document.currentScript;
    if (script instanceof HTMLScriptElement && isInlineClassic(script)) this.#scripts.add(script);
    else this.#elsewhere = true;
  }

  /**
   * Until the returned stop (once the document loaded): a `DOMContentLoaded` or `load` listener added by anything
   * but an inline script of the body (a head script, say, building the timeline from text a body script wrote), or
   * a `window.onload`, would not run again with a rerun, so it leaves changes to a reload.
   */
  watchLoadListeners(): () => void {
    const stop = interceptLoadListeners(() => {
      const script = document.currentScript;
      const inBody = script instanceof HTMLScriptElement && isInlineClassic(script) && !script.closest('head');
      if (!inBody) this.#elsewhere = true;
      return false;
    });
    return () => {
      stop();
      // Whoever assigned it (no script is current for a setter), a rerun would not call it again.
      if (window.onload) this.#elsewhere = true;
    };
  }

  /** True when every read came from an inline classic script of the body. */
  get inBody(): boolean {
    return !this.#elsewhere && [...this.#scripts].every((script) => document.body?.contains(script));
  }

  /** After a rerun the readers are the new scripts, which the reads recorded meanwhile already name. */
  forget(): void {
    this.#scripts.clear();
  }
}

/** A body to run again: its compiled markup, and which of its classic scripts (in tree order) runs inside a block. */
export interface RerunBody {
  readonly body: HTMLElement;
  readonly inBlock: number;
}

/**
 * The compiled document's body, ready to run again: `undefined` when it cannot be (see the module comment). Parsed
 * once per document.
 */
export function rerunnableBody(html: string): RerunBody | undefined {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  if (body.querySelector(REFUSED_MARKUP)) return undefined;
  const scripts: HTMLScriptElement[] = [];
  for (const script of body.querySelectorAll('script')) {
    const type = script.type.trim().toLowerCase();
    if (type === 'module') return undefined;
    if (!isClassic(script)) continue;
    if (script.hasAttribute('src') || WRITES.test(script.text)) return undefined;
    scripts.push(script);
  }
  if (scripts.slice(0, -1).some((script) => declaresLexically(script.text))) return undefined;
  return { body, inBlock: scripts.length - 1 };
}

/**
 * Whether a statement at the script's least indentation starts with `let`, `const` or `class`: a look at the text,
 * not a parse (a minified one-liner declaring after another statement gets past it, and then fails as it reruns).
 */
function declaresLexically(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const indents = lines.map((line) => line.length - line.trimStart().length);
  const least = Math.min(...indents);
  return lines.some((line, index) => indents[index] === least && LEXICAL.test(line.trimStart()));
}

let running = false;

/**
 * True while a rerun's scripts run: their errors are not reported as the composition's (the reload that follows a
 * failed rerun reports them, if they happen there too; a script that cannot run twice is nobody's error).
 */
export const rerunning = () => running;

/**
 * A copy of the compiled body for this document, with fresh scripts (they run when inserted; the parsed ones never
 * would, and must not run twice) and the media elements on stage in place of its own, loaded and at their frame.
 * `undefined` when the media on stage are not the compiled ones (a script made or changed some).
 */
export function prepareBody({ body: pristine, inBlock }: RerunBody): HTMLElement | undefined {
  const body = document.importNode(pristine, true);
  const compiledMedia = [...body.querySelectorAll(MEDIA)];
  const liveMedia = [...document.body.querySelectorAll(MEDIA)];
  if (compiledMedia.length !== liveMedia.length) return undefined;
  if (compiledMedia.some((media, index) => sourcesOf(media) !== sourcesOf(liveMedia[index]!))) return undefined;
  compiledMedia.forEach((media, index) => media.replaceWith(liveMedia[index]!));
  [...body.querySelectorAll('script')].filter(isClassic).forEach((parsed, index) => {
    const script = document.createElement('script');
    for (const { name, value } of parsed.attributes) script.setAttribute(name, value);
    // In a block, its `let`, `const` and `class` are its own, not the page's (which already has the first run's).
    script.text = index === inBlock ? `{\n${parsed.text}\n}` : parsed.text;
    parsed.replaceWith(script);
  });
  return body;
}

/** What a media element plays, as its markup says. */
const sourcesOf = (media: Element) =>
  JSON.stringify([
    media.getAttribute('src'),
    ...[...media.querySelectorAll('source')].map((source) => source.getAttribute('src')),
  ]);

/**
 * Replaces the live body with `body` (from {@link prepareBody}), which runs its scripts, in order. `DOMContentLoaded`
 * and `load` listeners the scripts add are called once they all ran (those events already fired). Returns false when
 * a script threw: the page is then in whatever state the scripts left, for a reload to replace.
 */
export function runBodyAgain(body: HTMLElement): boolean {
  const errors: unknown[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.error ?? event.message);
  const loadListeners: LoadListener[] = [];
  addEventListener('error', onError, true);
  const stopIntercepting = interceptLoadListeners((listener) => loadListeners.push(listener) > 0);
  running = true;
  try {
    // One insertion: its scripts run in tree order, synchronously (inline, not parser-inserted).
    document.body.replaceWith(body);
  } finally {
    stopIntercepting();
  }
  try {
    // As the document's own load did: `DOMContentLoaded` listeners first.
    for (const type of LOAD_EVENTS) for (const listener of loadListeners) if (listener.type === type) listener.call();
  } catch (error) {
    errors.push(error);
  } finally {
    removeEventListener('error', onError, true);
    running = false;
  }
  return errors.length === 0;
}

type LoadListener = { readonly type: string; readonly call: () => void };

/**
 * Calls `added` for each `DOMContentLoaded` / `load` listener added to the window or the document until the returned
 * undo; `added` returns true to keep it (its event fired already: the caller calls it), false to add it as usual.
 */
function interceptLoadListeners(added: (listener: LoadListener) => boolean): () => void {
  const undos = [window, document].map((target) => {
    const add = target.addEventListener;
    const own = Object.hasOwn(target, 'addEventListener');
    target.addEventListener = function (
      this: EventTarget,
      type: string,
      listener: EventListenerOrEventListenerObject | null,
      options?: boolean | AddEventListenerOptions,
    ) {
      const call = () => {
        const event = new Event(type);
        if (typeof listener === 'function') listener.call(target, event);
        else listener?.handleEvent(event);
      };
      if (LOAD_EVENTS.has(type) && listener && added({ type, call })) return;
      add.call(this, type, listener as EventListener, options);
    } as typeof add;
    return () => {
      // The prototype's method again (an own property only shadowed it), or the page's own one.
      if (own) target.addEventListener = add;
      else delete (target as Partial<Pick<EventTarget, 'addEventListener'>>).addEventListener;
    };
  });
  return () => undos.forEach((undo) => undo());
}
