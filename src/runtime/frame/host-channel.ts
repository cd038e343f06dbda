import { isConnectMessage, isHostMessage, Message, type FrameMessage, type HostMessage, type VariablesMessage } from '../protocol.js';
import type { Player } from './player.js';

const MAX_QUEUED = 20;

/**
 * Resolves right after the next frame was painted: a rAF runs before paint, the task it queues runs after.
 * A hidden document paints nothing (and gets no rAF), so it resolves at once.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    });
  });
}

/**
 * The frame's end of the host protocol. Accepts exactly one `connect` message from the parent window carrying a
 * `MessagePort`; everything after that travels on the port. Anything else is ignored.
 */
export class HostChannel {
  #port: MessagePort | undefined;
  #queue: FrameMessage[] = [];

  constructor(private readonly player: Player) {
    addEventListener('message', this.#onWindowMessage);
  }

  send(message: FrameMessage): void {
    if (this.#port) this.#port.postMessage(message);
    else {
      // Before the host connects only the latest messages matter; `ready` is never the one dropped.
      this.#queue.push(message);
      if (this.#queue.length > MAX_QUEUED) this.#queue.splice(this.#queue.findIndex((queued) => queued.type !== Message.ready), 1);
    }
  }

  #onWindowMessage = (event: MessageEvent) => {
    if (this.#port || event.source !== parent || parent === window) return;
    const port = event.ports[0];
    if (!port || !isConnectMessage(event.data)) return;
    removeEventListener('message', this.#onWindowMessage);
    this.#port = port;
    port.onmessage = (message) => {
      if (isHostMessage(message.data)) void this.#handle(message.data);
    };
    for (const queued of this.#queue.splice(0)) port.postMessage(queued);
  };

  async #handle(message: HostMessage): Promise<void> {
    const { player } = this;
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
        return this.send({ type: Message.seeked, id: message.id, time });
      }
      case Message.setVariables: {
        player.variables.setOverrides(message.values);
        // Showing the values does not need the reply (posting it costs a fraction of a millisecond), so it
        // leaves once the frame that shows them was painted.
        const reply = this.variablesMessage();
        await afterNextPaint();
        return this.send(reply);
      }
      case Message.setMuted:
        player.muted = message.muted;
        return;
      case Message.setLoop:
        player.loop = message.loop;
        return;
    }
  }

  variablesMessage(): VariablesMessage {
    const { variables } = this.player;
    return { type: Message.variables, values: variables.get(), issues: variables.issues, readsVariablesAtLoad: variables.readAtLoad };
  }
}
