import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How far j/l and the arrow keys seek (seconds). */
const SEEK_STEP_SECONDS = 5;

export interface ShortcutActions {
  togglePlay(): void;
  /** Seeks by `seconds` from the playhead (or from where a pending seek lands). */
  seekBy(seconds: number): void;
  seekTo(where: 'start' | 'end'): void;
  toggleMute(): void;
  toggleFullscreen(): void;
}

type Shortcut = (actions: ShortcutActions) => void;

/** The element's keys, as video players have them (YouTube's letters included). */
const SHORTCUTS: Readonly<Record<string, Shortcut>> = {
  ' ': (actions) => actions.togglePlay(),
  k: (actions) => actions.togglePlay(),
  j: (actions) => actions.seekBy(-SEEK_STEP_SECONDS),
  ArrowLeft: (actions) => actions.seekBy(-SEEK_STEP_SECONDS),
  l: (actions) => actions.seekBy(SEEK_STEP_SECONDS),
  ArrowRight: (actions) => actions.seekBy(SEEK_STEP_SECONDS),
  m: (actions) => actions.toggleMute(),
  f: (actions) => actions.toggleFullscreen(),
  Home: (actions) => actions.seekTo('start'),
  End: (actions) => actions.seekTo('end'),
};

/** Keys a slider handles itself: on the scrubber, arrows step one frame (on the volume slider, one step). */
const SLIDER_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);
/** Keys a button handles itself: it is pressed. */
const BUTTON_KEYS = new Set([' ', 'Enter']);

/** The shortcut for a key pressed inside the element, or `undefined` when the focused control keeps the key. */
function shortcutFor(event: KeyboardEvent): Shortcut | undefined {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return undefined;
  const focused = event.composedPath()[0];
  if (focused instanceof HTMLInputElement && focused.type === 'range' && SLIDER_KEYS.has(event.key)) return undefined;
  if (focused instanceof HTMLButtonElement && BUTTON_KEYS.has(event.key)) return undefined;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return Object.hasOwn(SHORTCUTS, key) ? SHORTCUTS[key] : undefined;
}

/** Player keys while focus is inside the element (its controls). */
export class KeyboardShortcuts implements ReactiveController {
  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly actions: ShortcutActions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.host.addEventListener('keydown', this.#onKeyDown);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('keydown', this.#onKeyDown);
  }

  #onKeyDown = (event: KeyboardEvent) => {
    const shortcut = shortcutFor(event);
    if (!shortcut) return;
    // Space would also scroll the page.
    event.preventDefault();
    shortcut(this.actions);
  };
}
