import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Focus for the declaration form: into its first input once it renders, and back to where it was (the button that
 * opened it) once it closes, so a keyboard user keeps their place.
 */
export class FormFocus implements ReactiveController {
  #pending = false;
  #return: Element | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly first: string,
  ) {
    host.addController(this);
  }

  /** The form opens in the next update. */
  opening(): void {
    this.#return = this.host.shadowRoot?.activeElement ?? undefined;
    this.#pending = true;
  }

  /** The form closes in the next update. */
  closing(): void {
    this.#pending = false;
    const back = this.#return;
    this.#return = undefined;
    void this.host.updateComplete.then(() => {
      if (back?.isConnected) (back as HTMLElement).focus();
    });
  }

  hostUpdated(): void {
    if (!this.#pending) return;
    const input = this.host.shadowRoot?.querySelector<HTMLElement>(this.first);
    if (!input) return;
    this.#pending = false;
    input.focus();
  }
}
