/** Where `<fx-composition>`'s load stands (loading, failed, ready), told as a media element tells it; seeks wait here. */
import type { ReactiveControllerHost } from 'lit';
import { FxError } from '../../runtime/errors.js';
import { FxCompositionErrorCode, FxCompositionEvent } from '../internal/constants.js';
import { emit } from '../internal/events.js';
import type { FrameSession } from './frame-session.js';
import { NetworkState, networkStateOf } from './playback-status.js';

/** What the status notice shows: a load under way, a failed one (with its code and message), or neither. */
export interface LoadState {
  readonly kind: 'idle' | 'loading' | 'error';
  readonly code?: string;
  readonly message?: string;
}

/**
 * The element's load as it shows: `ready` once a frame is on stage, its `duration`, the state the status notice and
 * `networkState` read, and who waits for the session on stage (a `seek()` before ready), settled once ready and
 * rejected when the load fails or the element leaves. Told with HTMLMediaElement's load events (`emptied`,
 * `loadstart`, `loadedmetadata`, `durationchange`, `loadeddata`, `canplay`, `canplaythrough`); a change of what
 * shows asks the host for an update.
 */
export class LoadStatus {
  #ready = false;
  #duration = Number.NaN;
  #state: LoadState = { kind: 'idle' };
  #waiters: { resolve: (session: FrameSession) => void; reject: (error: FxError) => void }[] = [];

  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    /** The session on stage. */
    private readonly session: () => FrameSession | undefined,
    /** A new source replaces what was loaded (or tried): it starts at the default rate. */
    private readonly emptied: () => void,
  ) {}

  get ready(): boolean {
    return this.#ready;
  }
  /** Length in seconds, `NaN` until loaded. */
  get duration(): number {
    return this.#duration;
  }
  get state(): LoadState {
    return this.#state;
  }
  /** HTMLMediaElement's `networkState` (playback-status.ts). */
  get networkState(): number {
    return networkStateOf(this.#state.kind, this.#ready);
  }

  #set(ready: boolean, state: LoadState | undefined): void {
    const old = this.#ready;
    this.#ready = ready;
    if (state) this.#state = state;
    if (state || old !== ready) this.host.requestUpdate();
  }

  /** A first load started: `emptied` if something was loaded (or tried), `loadstart`; nothing is ready until it is. */
  loading(): void {
    if (this.networkState !== NetworkState.empty) {
      emit(this.host, FxCompositionEvent.emptied);
      this.emptied();
    }
    emit(this.host, FxCompositionEvent.loadStart);
    this.#set(false, { kind: 'loading' });
  }

  /**
   * A frame of `duration` seconds went on stage, ready; a `first` one of its source (not a reload's) says so as a
   * media element does. Then those waiting for it get it.
   */
  shown(duration: number, first: boolean): void {
    const durationChanged = duration !== this.#duration;
    this.#duration = duration;
    this.#set(true, { kind: 'idle' });
    if (first) {
      emit(this.host, FxCompositionEvent.loadedMetadata);
      if (durationChanged) emit(this.host, FxCompositionEvent.durationChange);
      for (const name of [FxCompositionEvent.loadedData, FxCompositionEvent.canPlay, FxCompositionEvent.canPlayThrough])
        emit(this.host, name);
    }
    this.#settle();
  }

  failed(code: string, message: string): void {
    this.#set(this.#ready, { kind: 'error', code, message });
    this.#settle(new FxError(code, message));
  }

  /** The element left the document: not ready, and no one waits on. */
  left(): void {
    this.#set(false, undefined);
    this.#settle(new FxError(FxCompositionErrorCode.disconnected, 'the element was removed from the document'));
  }

  /** The session on stage once ready; rejects (instead of waiting forever) when loading fails or the element leaves. */
  readySession(): Promise<FrameSession> {
    const session = this.session();
    if (session && this.#ready) return Promise.resolve(session);
    // Failed: nothing comes until the next load, which a waiter would wait for forever.
    const { kind, code, message } = this.#state;
    if (kind === 'error')
      return Promise.reject(new FxError(code ?? FxCompositionErrorCode.loadFailed, message ?? 'the load failed'));
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Hands those waiting the session on stage, or rejects them with `error`. */
  #settle(error?: FxError): void {
    for (const waiter of this.#waiters.splice(0)) {
      if (error) waiter.reject(error);
      else waiter.resolve(this.session()!);
    }
  }
}
