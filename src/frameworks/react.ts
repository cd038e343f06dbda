// `fx-sdk/react`: React components for <fx-composition>, <fx-variables-panel> and <fx-render-button>, and the
// tags' JSX typings. Use the components wherever the page is rendered on a server (Next.js, Remix, Astro islands):
// React 19 hydrates server-rendered custom elements without their properties and listeners (react#35446), so the
// tag alone would drop `variables={…}` and `onready`. The components render the tag with its attributes (so the
// server's HTML starts loading at once) and set properties and listeners themselves once mounted. The build adds
// the 'use client' directive and the import that registers the elements (scripts/build.mjs).
import {
  createElement,
  useCallback,
  useLayoutEffect,
  useRef,
  type DetailedHTMLProps,
  type HTMLAttributes,
  type ReactElement,
  type Ref,
} from 'react';
import type { FxComposition as FxCompositionElement } from '../elements/composition/fx-composition.js';
import type { FxRenderButton as FxRenderButtonElement } from '../elements/render-button/fx-render-button.js';
import type { FxVariablesPanel as FxVariablesPanelElement } from '../elements/panel/fx-variables-panel.js';
import type {
  FxCompositionListeners,
  FxCompositionProperties,
  FxRenderButtonListeners,
  FxRenderButtonProperties,
  FxVariablesPanelListeners,
  FxVariablesPanelProperties,
} from './element-props.js';

export type {
  FxCompositionListeners,
  FxCompositionProperties,
  FxRenderButtonListeners,
  FxRenderButtonProperties,
  FxVariablesPanelListeners,
  FxVariablesPanelProperties,
};

/** What `<fx-composition>` takes in JSX: its attributes and properties, and listeners for its events. */
export type FxCompositionProps = DetailedHTMLProps<HTMLAttributes<FxCompositionElement>, FxCompositionElement> &
  FxCompositionListeners &
  FxCompositionProperties;

export type FxVariablesPanelProps = DetailedHTMLProps<
  HTMLAttributes<FxVariablesPanelElement>,
  FxVariablesPanelElement
> &
  FxVariablesPanelListeners &
  FxVariablesPanelProperties;

export type FxRenderButtonProps = Omit<
  DetailedHTMLProps<HTMLAttributes<FxRenderButtonElement>, FxRenderButtonElement>,
  'onError'
> &
  FxRenderButtonListeners &
  FxRenderButtonProperties;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'fx-composition': FxCompositionProps;
      'fx-variables-panel': FxVariablesPanelProps;
      'fx-render-button': FxRenderButtonProps;
    }
  }
}

/** A listener prop, as the tags' typings name them: `on` + the event's own (lowercase) name. */
const LISTENER = /^on[a-z]+$/;

type Handler = (event: Event) => void;

/**
 * The tag `tag` with `props`: attributes rendered by React (on the server too), `properties` and lowercase `on<event>`
 * listeners set on the element once mounted, and again when they change. A listener reads the latest prop, so a new
 * function each render adds no listener; a `ready` or `error` the element had before it mounted still reaches it
 * (the element keeps them for late listeners).
 */
function useCustomElement<E extends HTMLElement>(
  tag: string,
  props: object,
  properties: readonly string[],
): ReactElement {
  const { ref: forwarded, children, ...rest } = props as { ref?: Ref<E>; children?: unknown };
  const element = useRef<E | null>(null);
  const handlers = useRef<Record<string, Handler>>({});
  const passed: Record<string, unknown> = {};
  const set: Record<string, unknown> = {};
  const listened: Record<string, Handler> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (LISTENER.test(name)) {
      if (typeof value === 'function') listened[name.slice(2)] = value as Handler;
    } else if (properties.includes(name)) set[name] = value;
    else passed[name] = value;
  }
  handlers.current = listened;
  const names = Object.keys(listened).sort().join(' ');

  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    const added = names ? names.split(' ') : [];
    const dispatchers = added.map((name) => [name, (event: Event) => handlers.current[name]?.(event)] as const);
    for (const [name, dispatch] of dispatchers) target.addEventListener(name, dispatch);
    return () => {
      for (const [name, dispatch] of dispatchers) target.removeEventListener(name, dispatch);
    };
  }, [names]);

  useLayoutEffect(() => {
    const target = element.current as unknown as Record<string, unknown> | null;
    if (!target) return;
    // Only what changed: `variables` equal by content are a no-op to the element anyway.
    for (const [name, value] of Object.entries(set)) if (target[name] !== value) target[name] = value;
  });

  const ref = useCallback(
    (node: E | null) => {
      element.current = node;
      if (typeof forwarded === 'function') return forwarded(node);
      if (forwarded) (forwarded as { current: E | null }).current = node;
    },
    [forwarded],
  );
  return createElement(tag, { ...passed, ref }, children as never);
}

/** Properties with no attribute of the same name (objects, camelCase names): set on the element, never rendered. */
const COMPOSITION_PROPERTIES = [
  'variables',
  'allowCompositionReadsUnder',
  'posterTime',
  'playbackRate',
  'defaultPlaybackRate',
  'volume',
] as const satisfies readonly (keyof FxCompositionProperties)[];
const PANEL_PROPERTIES = ['projectDir'] as const satisfies readonly (keyof FxVariablesPanelProperties)[];
const RENDER_BUTTON_PROPERTIES = [
  'clientId',
  'redirectUri',
  'pollInterval',
  'credentials',
] as const satisfies readonly (keyof FxRenderButtonProperties)[];

/**
 * `<fx-composition>` for React, server-rendered or not: `variables` and the `on<event>` listeners (`onready`,
 * `onvariableschange`, `onerror`, … as the tag's typings name them) are set once mounted.
 *
 * @example
 * <FxComposition src="/launch/index.html" controls variables={{ headline }} onready={() => setReady(true)} />
 */
export function FxComposition(props: FxCompositionProps): ReactElement {
  return useCustomElement<FxCompositionElement>('fx-composition', props, COMPOSITION_PROPERTIES);
}

/** `<fx-variables-panel>` for React (see {@link FxComposition}). */
export function FxVariablesPanel(props: FxVariablesPanelProps): ReactElement {
  return useCustomElement<FxVariablesPanelElement>('fx-variables-panel', props, PANEL_PROPERTIES);
}

/** `<fx-render-button>` for React (see {@link FxComposition}). */
export function FxRenderButton(props: FxRenderButtonProps): ReactElement {
  return useCustomElement<FxRenderButtonElement>('fx-render-button', props, RENDER_BUTTON_PROPERTIES);
}
