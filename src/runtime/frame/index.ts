/**
 * The in-frame runtime (dist/fx-runtime.js). Loaded by the compiled document before any composition script:
 * installs `window.__fx`, applies variables, drives time, and talks to the host over the protocol.
 */
import { CONFIG_ELEMENT_ID, FrameAttr, type FrameConfig } from '../frame-config.js';
import { Message } from '../protocol.js';
import { HostChannel } from './host-channel.js';
import { Player } from './player.js';
import type { FxRendererHooks } from './contract.js';

function readConfig(): FrameConfig {
  const fallback: FrameConfig = { version: 1, compositionId: '', duration: 0, width: 1920, height: 1080, fps: 30, overrides: {} };
  try {
    const parsed = JSON.parse(document.getElementById(CONFIG_ELEMENT_ID)?.textContent ?? 'null');
    return parsed && typeof parsed === 'object' ? { ...fallback, ...parsed } : fallback;
  } catch {
    return fallback;
  }
}

function installHiddenStyle(): void {
  const sheet = new CSSStyleSheet();
  // Descendants too: an author's `visibility: visible` inside a hidden clip must not leak through.
  sheet.replaceSync(`[${FrameAttr.hidden}], [${FrameAttr.hidden}] * { visibility: hidden !important; }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

function boot(): void {
  if (window.__fx) return;
  const config = readConfig();
  const overrides = window.__fxVariables ?? config.overrides;
  const player = new Player({ ...config, overrides });
  window.__fxVariables = overrides;
  window.__timelines ??= {};
  const api = player.api();
  // Called by the compiled document's wrapped sub-composition scripts; not for authors.
  Object.defineProperty(api, 'runInstanceScript', { value: player.runInstanceScript.bind(player) });
  // Read by the renderer (FxRendererHooks) to mix audio at the runtime's own clip offsets.
  const clipWindow: FxRendererHooks['clipWindow'] = (element) => {
    const clip = player.timeline?.clips.find((candidate) => candidate.element === element);
    return clip && { start: clip.window.start, end: clip.window.end };
  };
  Object.defineProperty(api, 'clipWindow', { value: clipWindow });
  window.__fx = api;
  installHiddenStyle();

  const channel = new HostChannel(player);
  player.events = {
    onTime: (time, paused) => channel.send({ type: Message.time, time, paused }),
    onEnded: () => channel.send({ type: Message.ended }),
  };
  addEventListener('error', (event) => channel.send({ type: Message.error, code: 'script_error', message: String(event.message || event.error) }));
  addEventListener('unhandledrejection', (event) => channel.send({ type: Message.error, code: 'script_error', message: `unhandled rejection: ${String(event.reason)}` }));
  addEventListener('DOMContentLoaded', () => player.variables.applyAll(document), { once: true });
  const start = () =>
    player.start().then(() => {
      const variables = channel.variablesMessage();
      channel.send({
        type: Message.ready,
        duration: player.duration,
        fps: config.fps,
        width: config.width,
        height: config.height,
        declarations: player.variables.declarations,
        values: variables.values,
        issues: [...variables.issues, ...(player.timeline?.issues ?? [])],
        readsVariablesAtLoad: variables.readsVariablesAtLoad,
      });
    });
  if (document.readyState === 'complete') void start();
  else addEventListener('load', () => void start(), { once: true });
}

boot();
