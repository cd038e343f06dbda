import { isConnectMessage, isHostMessage } from '../protocol-frame.js';
import { Message, type FrameMessage, type HostMessage, type VariablesMessage } from '../protocol-messages.js';
import type { Player } from './player.js';
import type { FrameVariables } from './variables.js';

const MAX_QUEUED = 20;

/** Sends one message to the host. */
export type SendToHost = (message: FrameMessage) => void;

/**
 * The frame's end of the host protocol. Accepts exactly one `connect` message from the parent window carrying a
 * `MessagePort`; everything after that travels on the port. Anything else is ignored. Returns the sender, which
 * queues messages until the host connects.
 */
export function connectHost(player: Player): SendToHost {
  let port: MessagePort | undefined;
  const queue: FrameMessage[] = [];
  const send: SendToHost = (message) => {
    if (port) return port.postMessage(message);
    // Before the host connects only the latest messages matter; `ready` is never the one dropped.
    queue.push(message);
    if (queue.length > MAX_QUEUED)
      queue.splice(
        queue.findIndex((queued) => queued.type !== Message.ready),
        1,
      );
  };
  const onWindowMessage = (event: MessageEvent) => {
    if (port || event.source !== parent || parent === window) return;
    const offered = event.ports[0];
    if (!offered || !isConnectMessage(event.data)) return;
    removeEventListener('message', onWindowMessage);
    port = offered;
    port.onmessage = (message) => {
      if (isHostMessage(message.data)) void handle(player, message.data, send);
    };
    for (const queued of queue.splice(0)) port.postMessage(queued);
  };
  addEventListener('message', onWindowMessage);
  return send;
}

async function handle(player: Player, message: HostMessage, send: SendToHost): Promise<void> {
  switch (message.type) {
    case Message.play:
      await player.ready;
      return player.play();
    case Message.pause:
      return player.pause();
    case Message.seek: {
      await player.ready;
      const time = await player.seek(message.time);
      await afterNextPaint();
      return send({ type: Message.seeked, id: message.id, time });
    }
    case Message.setVariables: {
      player.variables.setOverrides(message.values);
      // Showing the values does not need the reply (posting it costs a fraction of a millisecond), so it
      // leaves once the frame that shows them was painted.
      const reply = variablesMessage(player.variables);
      await afterNextPaint();
      return send(reply);
    }
    case Message.setMuted:
      player.muted = message.muted;
      return;
    case Message.setLoop:
      player.loop = message.loop;
      return;
    case Message.setRate:
      player.rate = message.rate;
      return;
    case Message.setVolume:
      player.volume = message.volume;
      return;
  }
}

/** The top level's values and every scope's issues (the layout's too), as the host is told them. */
export function variablesMessage(variables: FrameVariables): VariablesMessage {
  return {
    type: Message.variables,
    values: variables.get(),
    issues: [...variables.issues, ...variables.layoutIssues()],
    readsVariablesAtLoad: variables.readAtLoad,
  };
}

/**
 * Resolves once the frame drawn after this call has reached the compositor, so a screenshot of the host page shows
 * it. The first rAF runs before the main thread paints the new state; raster and activation of that paint happen
 * later, off the main thread, and a host that answered right then could composite the previous frame (seen on
 * large, GSAP-heavy compositions under load). The browser starts the next frame only once the previous one was
 * activated, so the task queued from the second rAF runs after the new state was drawn. A hidden document paints
 * nothing (and gets no rAF), so it resolves at once.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve();
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
    );
  });
}
