/**
 * The in-frame runtime (dist/fx-runtime.js). Loaded by the compiled document before any composition script:
 * installs `window.__fx`, applies variables, drives time, and talks to the host over the protocol.
 */
import { CONFIG_ELEMENT_ID, type FrameConfig } from '../frame-config.js';
import { installAliases, injectedOverrides } from './aliases.js';
import { Message } from '../protocol/messages.js';
import { FrameCode } from './frame-codes.js';
import type { FxRendererHooks } from './contract.js';
import { FRAME_BASE_STYLE } from './base-style.js';
import { audioClips } from './audio-clips.js';
import { adoptStyle } from './css-isolation.js';
import { recordCanvasContexts } from './capture/context-types.js';
import { connectHost, variablesMessage } from './host-channel.js';
import { holdDateNow } from './load-clock.js';
import { preloadMediaInFull } from './media.js';
import { Player } from './player.js';
import { refitWhereStale } from './refit.js';
import { rerunning } from './rerun.js';

function readConfig(): FrameConfig {
  const fallback: FrameConfig = {
    version: 1,
    compositionId: '',
    duration: 0,
    durationFromTimeline: false,
    width: 1920,
    height: 1080,
    fps: 30,
    overrides: {},
    aliases: true,
  };
  const element = document.getElementById(CONFIG_ELEMENT_ID);
  // Read once and gone: instance scripts should not find the top level's overrides in the DOM either.
  element?.remove();
  try {
    const parsed = JSON.parse(element?.textContent ?? 'null');
    return parsed && typeof parsed === 'object' ? { ...fallback, ...parsed } : fallback;
  } catch {
    return fallback;
  }
}

function boot(): void {
  if (window.__fx) return;
  const releaseDateNow = holdDateNow();
  const config = readConfig();
  const overrides = injectedOverrides(config.aliases) ?? config.overrides;
  const player = new Player({ ...config, overrides });
  window.__fxVariables = overrides;
  window.__timelines ??= {};
  // Read by the renderer to mix audio at the runtime's own clip offsets (a copy: scripts must not move clips).
  const clipWindow: FxRendererHooks['clipWindow'] = (element) => {
    const clip = player.timeline?.windowOf(element);
    return clip && { ...clip };
  };
  window.__fx = Object.defineProperties(player.api(), {
    // Called by the compiled document's wrapped sub-composition scripts; not for authors.
    runInstanceScript: { value: player.runInstanceScript.bind(player) },
    clipWindow: { value: clipWindow },
    bindingIssues: { value: (() => player.variables.bindingIssues) satisfies FxRendererHooks['bindingIssues'] },
    durationIssue: { value: (() => player.durationIssue) satisfies FxRendererHooks['durationIssue'] },
    mediaSeeked: { value: (() => player.mediaSeeked()) satisfies FxRendererHooks['mediaSeeked'] },
    audioClips: { value: (() => audioClips(clipWindow)) satisfies FxRendererHooks['audioClips'] },
  });
  if (config.aliases) installAliases(window.__fx, overrides);
  adoptStyle().replaceSync(FRAME_BASE_STYLE);
  // Before any composition script makes a canvas context: capture refuses WebGL it could not read.
  recordCanvasContexts();
  preloadMediaInFull();
  document.fonts?.addEventListener('loadingdone', refitWhereStale);

  const send = connectHost(player, { width: config.width, height: config.height });
  player.events = {
    onTime: (time, paused) => send({ type: Message.time, time, paused }),
    onEnded: () => send({ type: Message.ended }),
  };
  player.reads.report = (ids) => send({ type: Message.reads, ids });
  addEventListener('error', (event) => {
    if (rerunning()) return;
    send({ type: Message.error, code: FrameCode.scriptError, message: String(event.message || event.error) });
  });
  addEventListener('unhandledrejection', (event) =>
    send({ type: Message.error, code: FrameCode.scriptError, message: `unhandled rejection: ${String(event.reason)}` }),
  );
  addEventListener('DOMContentLoaded', () => player.variables.applyAll(document), { once: true });
  const start = () =>
    player
      .start()
      .finally(releaseDateNow)
      .then(() => {
        const { values, issues, readsVariablesAtLoad } = variablesMessage(player.variables);
        send({
          type: Message.ready,
          duration: player.duration,
          fps: config.fps,
          width: config.width,
          height: config.height,
          declarations: player.variables.declarations,
          values,
          issues: [
            ...issues,
            ...(player.durationIssue ? [player.durationIssue] : []),
            ...(player.timeline?.issues ?? []),
          ],
          readsVariablesAtLoad,
        });
      });
  if (document.readyState === 'complete') void start();
  else addEventListener('load', () => void start(), { once: true });
  // After the runtime's own: the composition's load listeners decide whether its scripts can run again (rerun.ts).
  const stopWatching = player.loadReaders.watchLoadListeners();
  void player.ready.then(stopWatching);
}

boot();
