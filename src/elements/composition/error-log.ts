/** The `error` events `<fx-composition>` fired since its source started loading: its `errors`, and the stage's hint. */
import type { ReactiveControllerHost } from 'lit';
import { FxCompositionEvent } from '../internal/constants.js';
import type { FxErrorDetail } from '../internal/events.js';
import { internal, MAX_KEPT_ERRORS } from './unheard-events.js';

/**
 * Every error the element reports stays readable (`errors`) and shows on its stage, so a composition that broke is
 * not a silent 0:00, even when it broke before the page listened. Newest last, at most {@link MAX_KEPT_ERRORS}.
 */
export class ErrorLog {
  #errors: readonly FxErrorDetail[] = [];

  /** Listens to the host's `error` events as the SDK's own listener; `heard` is told of each after it is kept. */
  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    heard: (detail: FxErrorDetail) => void,
  ) {
    host.addEventListener(
      FxCompositionEvent.error,
      internal((event: Event) => {
        const { detail } = event as CustomEvent<FxErrorDetail>;
        this.#set([...this.#errors, { code: detail.code, message: detail.message }].slice(-MAX_KEPT_ERRORS));
        heard(detail);
      }),
    );
  }

  get errors(): readonly FxErrorDetail[] {
    return this.#errors;
  }

  /** The messages, oldest first. */
  get messages(): string[] {
    return this.#errors.map((error) => error.message);
  }

  /** A new source started loading: what the last one reported is no longer news. */
  reset(): void {
    this.#set([]);
  }

  #set(errors: readonly FxErrorDetail[]): void {
    this.#errors = errors;
    this.host.requestUpdate();
  }
}
