import { isConnectMessage, isHostMessage } from '../protocol/frame.js';
import {
  Message,
  type FrameMessage,
  type HostMessage,
  type SendToHost,
  type VariablesMessage,
} from '../protocol/messages.js';
import { afterNextPaint, afterThisFrame, PaintSettler } from './painted.js';
import { CaptureSession } from './capture/capture-session.js';
import type { Player } from './player.js';
import { SeekQueue } from './seek-queue.js';
import type { FrameVariables } from './variables.js';

const MAX_QUEUED = 20;

/**
 * The frame's end of the host protocol. Accepts exactly one `connect` message from the parent window carrying a
 * `MessagePort`; everything after that travels on the port. Anything else is ignored. Returns the sender, which
 * queues messages until the host connects.
 */
export function connectHost(player: Player, size: { width: number; height: number }): SendToHost {
  let port: MessagePort | undefined;
  const queue: FrameMessage[] = [];
  const send: SendToHost = (message, transfer = []) => {
    if (port) return port.postMessage(message, transfer);
    // Before the host connects only the latest messages matter; `ready` is never the one dropped.
    queue.push(message);
    if (queue.length > MAX_QUEUED)
      queue.splice(
        queue.findIndex((queued) => queued.type !== Message.ready),
        1,
      );
  };
  const seeks = seekQueue(player, send);
  const captures = new CaptureSession(player, size, send);
  const onWindowMessage = (event: MessageEvent) => {
    if (port || event.source !== parent || parent === window) return;
    const offered = event.ports[0];
    if (!offered || !isConnectMessage(event.data)) return;
    removeEventListener('message', onWindowMessage);
    port = offered;
    port.onmessage = (message) => {
      if (isHostMessage(message.data)) void handle(player, message.data, send, seeks, captures);
    };
    for (const queued of queue.splice(0)) port.postMessage(queued);
  };
  addEventListener('message', onWindowMessage);
  return send;
}

const paints = new PaintSettler();
/** The frame's seeks, each answered once its picture is composited (what a host screenshots after). */
function seekQueue(player: Player, send: SendToHost): SeekQueue {
  return new SeekQueue(
    async ({ time, scrubbing }) => {
      await player.ready;
      const landed = await player.seek(time);
      await player.mediaPresented;
      // A seek on its own is what a screenshot follows: its video frames go to the compositor twice (see there).
      if (!scrubbing) await player.presentMediaAgain();
      await paints.afterSettledPaint(scrubbing);
      return landed;
    },
    (id, time) => send({ type: Message.seeked, id, time }),
  );
}

async function handle(
  player: Player,
  message: HostMessage,
  send: SendToHost,
  seeks: SeekQueue,
  captures: CaptureSession,
): Promise<void> {
  switch (message.type) {
    case Message.play:
      seeks.flush();
      await player.ready;
      return player.play();
    case Message.pause:
      // After the seeks it follows, as they apply once ready.
      if (seeks.flush()) await player.ready;
      return player.pause();
    case Message.seek:
      return seeks.push({ id: message.id, time: message.time, scrubbing: paints.partOfScrub() });
    case Message.setVariables: {
      player.variables.setOverrides(message.values);
      if (message.compiled !== undefined) player.offerCompiled(message.compiled);
      // Scripts that read values at load see the new ones only by running again: in place when they can.
      // A rerun that throws (a composition's own timeline, say) is one that did not happen: the host reloads.
      const ranAgain = player.variables.readAtLoad && (await player.rerun(message.values).catch(() => false));
      // The values show first: the reply, whose layout issues measure boxes (a layout of its own), leaves once the
      // frame that shows them was painted, when that layout is already done. A rerun resolves inside that frame.
      await (ranAgain ? afterThisFrame() : afterNextPaint());
      // A stage built again is rasterised afresh, like a first one: the next seek settles.
      if (ranAgain) paints.expectLag();
      return send(variablesMessage(player.variables, ranAgain));
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
    case Message.captureStart:
      // After the seeks it follows, like a pause.
      seeks.flush();
      return captures.start(message);
    case Message.capture:
      return captures.capture(message.id, message.time);
    case Message.captureFlush:
      return captures.flush(message.id);
  }
}

/** The top level's values and every scope's issues (the layout's too), as the host is told them. */
export function variablesMessage(variables: FrameVariables, ranAgain = false): VariablesMessage {
  return {
    type: Message.variables,
    values: variables.get(),
    issues: [...variables.issues, ...variables.layoutIssues()],
    readsVariablesAtLoad: variables.readAtLoad,
    ranAgain,
  };
}
