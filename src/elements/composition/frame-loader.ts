import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { parseUrl } from '../../runtime/data.js';
import { FxError, isFxError } from '../../runtime/errors.js';
import type { CompositionMetadata } from '../../runtime/metadata.js';
import type { FrameMessage, ReadyMessage } from '../../runtime/protocol/messages.js';
import {
  compilePreview,
  withPreviewValues,
  type PreviewCompile,
  type PreviewCompileOptions,
} from './compile-preview.js';
import type { HtmlEntry } from '../../runtime/compile/compile.js';
import { FxCompositionErrorCode, FxCompositionEvent } from '../internal/constants.js';
import { emit, emitIssues } from '../internal/events.js';
import { addTrustedReads, landingTime, settledMetadata, stageOf, type Stage } from './frame-reports.js';
import { FrameSession, READY_TIMEOUT_MS } from './frame-session.js';
import { runtimeLoadFailure } from './runtime-failure.js';
import { embeddedRuntimeScript } from './runtime-url.js';
import type { LoadingFrame, ShownValues } from './live-variables.js';
import { unreadDeclarations } from '../internal/unread-declarations.js';
import { sameValues } from '../internal/values-equal.js';

/** How long a reload's incoming frame may take to paint the playhead before it swaps in anyway (and seeks on stage). */
const SWAP_SEEK_MS = 2000;
/** A reload seeks its incoming frame again when the playhead moved meanwhile, at most this many times. */
const SWAP_SEEK_TRIES = 3;

/** The element's inputs a load reads when it starts (and `nonce`, every element's). */
export interface LoadInput {
  readonly src: string;
  readonly srcdoc: string | null;
  readonly allowCompositionReadsUnder: readonly string[];
  readonly variables: Record<string, unknown>;
}

/** Where a reload picks up, read at swap time: the playhead, whether it was playing, whether the frame is there. */
export interface Playhead {
  readonly time: number;
  readonly playing: boolean;
  readonly painted: boolean;
}

/** What the loader asks of the element, and tells it. */
export interface LoadEvents {
  /** `FxComposition.runtimeUrl`. */
  runtimeUrl(): string | undefined;
  /** True when the load waits (lazy, off screen). */
  defer(): boolean;
  /** A first load starts (a reload keeps what is on stage until it swaps). */
  loading(): void;
  /** A first load compiled: what is known shows at once. `dependencies`: the compile's (`CompiledComposition`). */
  compiled(known: CompositionMetadata, dependencies: readonly string[]): void;
  /** Puts a new frame into the element, sized for `stage`, before it loads. */
  mount(iframe: HTMLIFrameElement, stage: Stage): void;
  /** The new frame is ready: hand it the settings it applies itself. */
  settings(session: FrameSession): void;
  /** The playhead on stage, read again after each seek of a reload's catch-up. */
  playhead(): Omit<Playhead, 'painted'>;
  /** The new frame is on stage; `keep` is where a reload picked up. */
  ready(ready: ReadyMessage, keep: Playhead | undefined, known: CompositionMetadata): void;
  failed(code: string, message: string): void;
  /** Brings a ready frame loaded with `loaded` up to the values in effect (`LiveVariables.catchUp`). */
  catchUpValues(
    frame: LoadingFrame,
    loaded: Record<string, unknown>,
    shown: Omit<ShownValues, 'applied'>,
  ): Promise<ShownValues | undefined>;
  /** A message of a session on stage or incoming (the others are disposed and hear nothing). */
  message(session: FrameSession, message: FrameMessage): void;
}

/** A step's result, or a rejection once `signal` aborted meanwhile: an abandoned load goes no further than its await. */
const unlessAborted = <T>(signal: AbortSignal, step: Promise<T>): Promise<T> =>
  step.then((value) => (signal.aborted ? Promise.reject(signal.reason) : value));

/**
 * Loads the composition into frames: compiles it, prepares a frame session, and puts it on stage once ready. A
 * reload prepares the new frame behind the one on stage, catches it up with the playhead, and swaps. One load runs
 * at a time: a newer one aborts it (like `@lit/task`, each run has its own `AbortSignal`).
 */
export class FrameLoader implements ReactiveController {
  /** The session on stage. */
  #session: FrameSession | undefined;
  /** The session being loaded (a first load or a reload), before it goes on stage; a newer load disposes it. */
  #incoming: FrameSession | undefined;
  #abort: AbortController | undefined;
  /** What relative values (font sources, images) of the composition resolve against: its `src`, else the page. */
  #base = document.baseURI;
  /** What the last load compiled, and how: an export compiles the same with its own values and frame grid. */
  #lastInput:
    | {
        readonly entry: string | HtmlEntry;
        readonly base: string;
        readonly options: Omit<PreviewCompileOptions, 'signal'>;
      }
    | undefined;
  /** The last compile and what it compiled: a reload of the same composition swaps only the values into it. */
  #lastCompile: { readonly key: string; readonly result: PreviewCompile } | undefined;
  /** A reload is under way; `#reloadAgain`: values changed since it started, so one more follows it. */
  #reloading = false;
  #reloadAgain = false;
  /** The values the frame on stage was loaded with or caught up to: a reload asked for meanwhile may be moot. */
  #shownValues: Record<string, unknown> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & LoadInput,
    private readonly events: LoadEvents,
  ) {
    host.addController(this);
  }

  /**
   * The composition the last load compiled, compiled again with `values` on a frame grid of `fps`: what an export
   * frame loads. Undefined before the first load.
   */
  compileForCapture(values: Record<string, unknown>, fps: number, signal: AbortSignal) {
    const input = this.#lastInput;
    return input && compilePreview(input.entry, values, input.base, { ...input.options, fps, signal });
  }

  get session(): FrameSession | undefined {
    return this.#session;
  }

  get base(): string {
    return this.#base;
  }

  hostDisconnected(): void {
    this.#abandon();
    this.#reloadAgain = false;
    this.#session?.dispose();
    this.#session = undefined;
  }

  /**
   * Scripts read values at load: after bindings updated in place, reload behind the scenes (the playhead is read at
   * swap time). At once, so the first change shows soonest; changes made meanwhile make one more reload after it.
   */
  scheduleReload(): void {
    if (this.#reloading) {
      this.#reloadAgain = true;
      return;
    }
    this.#reloading = true;
    void this.load(true).finally(() => {
      this.#reloading = false;
      if (!this.#reloadAgain) return;
      this.#reloadAgain = false;
      // The reload caught up with the values set while it ran: nothing left to reload for.
      if (this.#shownValues && sameValues(this.#shownValues, this.host.variables)) return;
      this.scheduleReload();
    });
  }

  /** Stops the load under way, with the frame it was preparing. */
  #abandon(): void {
    this.#abort?.abort();
    this.#incoming?.dispose();
    this.#incoming = undefined;
  }

  /** Compiles the composition into a new frame; a `reload` prepares it behind the one on stage and swaps. */
  async load(reload = false): Promise<void> {
    const { events } = this;
    if (events.defer()) return;
    this.#abandon();
    const { signal } = (this.#abort = new AbortController());
    const input = this.host;
    const base = input.src ? parseUrl(input.src, document.baseURI)?.href : document.baseURI;
    if (base === undefined)
      return events.failed(
        FxCompositionErrorCode.srcInvalid,
        `"src" must be a URL, got ${JSON.stringify(input.src.slice(0, 80))}`,
      );
    const entry = input.src ? base : input.srcdoc !== null ? { html: input.srcdoc, url: base } : undefined;
    if (!entry) return;
    this.#base = base;
    if (!reload) {
      // A first load reads the latest values itself.
      this.#reloadAgain = false;
      events.loading();
    }
    try {
      const runtimeUrl = events.runtimeUrl();
      const options = {
        ...(runtimeUrl ? { runtimeUrl } : { runtimeScript: embeddedRuntimeScript }),
        nonce: input.nonce || undefined,
        allowCompositionReadsUnder: input.allowCompositionReadsUnder,
        signal,
      };
      const { signal: _, ...compileOptions } = options;
      this.#lastInput = { entry, base, options: compileOptions };
      const key = JSON.stringify([entry, runtimeUrl, options.nonce, options.allowCompositionReadsUnder]);
      /** The compile with the values in effect: the last one's with them swapped in, when nothing needs fetching. */
      const compileNow = async (previous: PreviewCompile | undefined) => {
        const values = input.variables;
        const result =
          (previous && withPreviewValues(previous, values)) ??
          (await unlessAborted(signal, compilePreview(entry, values, base, options)));
        this.#lastCompile = { key, result };
        return { values, result };
      };
      let { values, result } = await compileNow(
        reload && this.#lastCompile?.key === key ? this.#lastCompile.result : undefined,
      );
      // Values set while it compiled: swap them in now, or the frame catches up with them once ready.
      if (!sameValues(values, input.variables)) {
        const swapped = withPreviewValues(result, input.variables);
        if (swapped) ({ values, result } = { values: input.variables, result: swapped });
        this.#lastCompile = { key, result };
      }
      const { compiled, fontIssues } = result;
      emitIssues(this.host, fontIssues);
      const { metadata } = compiled;
      const known = { ...metadata, issues: [...metadata.issues, ...compiled.issues] };
      // A first load shows what is known at once; a reload keeps the metadata on stage until it swaps.
      if (!reload) events.compiled(known, compiled.dependencies);
      // Warnings (a stylesheet left for the frame to load itself) are in `metadata.issues`; only errors are events.
      // So are declarations that could not be read: the composition plays without those variables.
      const reported = [...compiled.issues, ...unreadDeclarations(metadata.issues)];
      const broken = reported.find((found) => found.severity === 'error');
      if (broken)
        emit(this.host, FxCompositionEvent.error, { code: broken.code, message: broken.message, issues: reported });

      for (let attempt = 0; ; attempt++) {
        const { session, ready } = await this.#prepare(result.compiled.html, metadata, reload, signal, runtimeUrl);
        events.settings(session);
        const settled = settledMetadata(known, ready);
        if (settled.issue && attempt === 0) {
          const { code, message } = settled.issue;
          emit(this.host, FxCompositionEvent.error, { code, message, issues: [settled.issue] });
        }
        let shown = await unlessAborted(signal, this.#catchUpValues(session, values, ready));
        let keep: Playhead | undefined;
        while (shown && reload) {
          keep = await unlessAborted(signal, this.#catchUp(session, stageOf(settled.metadata)));
          if (sameValues(shown.applied, input.variables)) break;
          // Values set during the catch-up's seeks (slow where animation frames come slowly, as in WebKit under
          // load): the frame goes on stage with them, or `ready` would report values already replaced.
          shown = await unlessAborted(signal, this.#catchUpValues(session, shown.applied, shown));
        }
        if (!shown) {
          // Its scripts read the values at load: load the latest into a new frame.
          session.dispose();
          ({ values, result } = await compileNow(result));
          continue;
        }
        // Settings changed during the catch-up reached only the frame on stage: hand the incoming one their latest.
        if (reload) events.settings(session);
        // A reload runs the same scripts: what they read before still counts.
        if (reload && this.#session) addTrustedReads(session.reads, [...this.#session.reads]);
        this.#session?.dispose();
        this.#session = session;
        this.#shownValues = shown.applied;
        this.#incoming = undefined;
        session.iframe.classList.remove('incoming');
        events.ready({ ...ready, values: shown.values, issues: shown.issues }, keep, settled.metadata);
        return;
      }
    } catch (error) {
      if (signal.aborted) return;
      events.failed(
        isFxError(error) ? error.code : FxCompositionErrorCode.loadFailed,
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  /** A new frame session for `html`, mounted and ready (a reload's behind the one on stage); throws when it fails. */
  async #prepare(
    html: string,
    metadata: CompositionMetadata,
    reload: boolean,
    signal: AbortSignal,
    runtimeUrl: string | undefined,
  ): Promise<{ session: FrameSession; ready: ReadyMessage }> {
    const session = new FrameSession(html, metadata.id ?? 'Composition preview', {
      onMessage: (message) => this.events.message(session, message),
    });
    this.#incoming = session;
    if (reload) session.iframe.classList.add('incoming');
    await unlessAborted(signal, this.host.updateComplete);
    // Sized before it loads, so its first layout is at the composition's size (not the default 300 × 150).
    this.events.mount(session.iframe, stageOf(metadata));
    const ready = await unlessAborted(
      signal,
      Promise.race([session.ready, runtimeLoadFailure(session.iframe, session.ready)]),
    );
    if (ready === true) {
      session.dispose();
      throw new FxError(
        FxCompositionErrorCode.runtimeLoadFailed,
        `the runtime did not load from ${runtimeUrl} (set FxComposition.runtimeUrl to where fx-runtime.js is served)`,
      );
    }
    if (!ready) {
      session.dispose();
      throw new FxError(
        FxCompositionErrorCode.frameTimeout,
        `the composition did not get ready within ${READY_TIMEOUT_MS / 1000} s`,
      );
    }
    return { session, ready };
  }

  /**
   * Brings a prepared frame up to the values set since its load read them. Checked again once caught up, in the
   * task that puts it on stage: what `ready` reports is what the frame shows.
   */
  async #catchUpValues(session: FrameSession, loaded: Record<string, unknown>, ready: Omit<ShownValues, 'applied'>) {
    let shown = await this.events.catchUpValues(session, loaded, ready);
    while (shown && !sameValues(shown.applied, this.host.variables))
      shown = await this.events.catchUpValues(session, shown.applied, shown);
    return shown;
  }

  /**
   * Seeks a reload's incoming frame to the playhead on stage, reading it again after each seek: a pause or seek made
   * while the reload ran must survive the swap. Waits at most {@link SWAP_SEEK_MS} a seek (the swap then seeks on
   * stage); the incoming frame still paints (opacity, not `visibility`: Chromium gives a hidden opaque-origin frame no
   * animation frames, so its seek would wait for the timeout).
   */
  async #catchUp(session: FrameSession, stage: Stage): Promise<Playhead> {
    for (let tries = 1; ; tries++) {
      const wanted = this.events.playhead();
      const painted = await session.seek(landingTime(wanted.time, stage), SWAP_SEEK_MS);
      const now = this.events.playhead();
      // Playing, the playhead always moves on: one seek puts the incoming frame close enough.
      if (!painted || now.playing || now.time === wanted.time || tries === SWAP_SEEK_TRIES)
        return { ...now, painted: painted && now.time === wanted.time };
    }
  }
}
