import { Header, WebhookEventType } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { WebhookOutcome } from '../observe/events.js';
import { AddressRefusedError, isLoopbackHost, outboundFetch } from '../network-guard.js';
import { signedLinks } from '../renders/links.js';
import type { RenderRow } from '../renders/render-types.js';
import type { WebhookDelivery } from './outbox.js';
import { signWebhook } from './signature.js';

const BATCH = 20;
/**
 * How long a dispatcher holds the deliveries it took: the send's own timeout twice over (the render and account
 * look-ups and the outcome's write come on top of the send).
 */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs;
/** Delay before attempt `attempts + 1`: base × 4^(attempts − 1), capped (5 s, 20 s, 80 s, … ≤ 1 h by default). */
export const retryDelay = (attempts: number, baseMs: number, maxMs: number) =>
  Math.min(baseMs * 4 ** Math.max(attempts - 1, 0), maxMs);

/** The event body (openapi.yaml `WebhookEvent`), with links signed for this attempt. */
export async function webhookEvent(context: ServiceContext, delivery: WebhookDelivery, render: RenderRow, now: number) {
  const completed = delivery.eventType === WebhookEventType.completed;
  const links = await signedLinks(render, {
    signer: context.signer,
    ttlSeconds: context.config.signedUrlTtlSeconds,
    baseUrl: context.baseUrl(),
    now,
    presign: context.storage.presignedGetUrl?.bind(context.storage),
  });
  return {
    type: delivery.eventType,
    timestamp: new Date(delivery.eventTime).toISOString(),
    data: {
      render_id: render.id,
      status: render.status,
      callback_id: render.request.callback_id,
      // The submitter's correlation data, as submitted (records from before the field: null, render-store.ts).
      metadata: render.request.metadata,
      credits: render.credits,
      ...(completed ? links : { failure: render.failure }),
    },
  };
}

/**
 * Sends due webhooks from the outbox, signed the Standard Webhooks way, retrying non-2xx answers and timeouts
 * with exponential backoff. Polls every `pollMs`; `wake()` looks at once (a render just finished).
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly context: ServiceContext) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.context.config.webhooks.pollMs);
    this.timer.unref();
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error) => this.context.config.log('webhook dispatch failed', { error: String(error) }))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const { now, webhooks } = this.context.config;
      const at = now();
      const due = await this.context.outbox.claimDue(at, BATCH, at + leaseMs(webhooks.timeoutMs));
      if (due.length === 0 || this.stopped) return;
      await Promise.all(due.map((delivery) => this.attempt(delivery)));
    }
  }

  /** Says one attempt's outcome (`webhookAttempted`): the metrics count it, the log has a line of it. */
  private said(
    delivery: WebhookDelivery,
    attempt: number,
    started: number,
    outcome: WebhookOutcome,
    status: number | null,
    error?: string,
  ): void {
    this.context.events.emit('webhookAttempted', {
      renderId: delivery.renderId,
      accountId: delivery.accountId,
      deliveryId: delivery.id,
      eventType: delivery.eventType,
      attempt,
      status,
      outcome,
      ms: Math.round(performance.now() - started),
      ...(error === undefined ? {} : { error }),
    });
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const { config, outbox } = this.context;
    const attempts = delivery.attempts + 1;
    const started = performance.now();
    const render = await this.context.renders.find(delivery.renderId);
    const account = await this.context.accounts.get(delivery.accountId);
    if (!render || !account) {
      const error = 'the render was deleted';
      await outbox.abandon(delivery.id, attempts - 1, null, error);
      return this.said(delivery, attempts - 1, started, WebhookOutcome.abandoned, null, error);
    }
    let status: number | null = null;
    let error: string;
    try {
      const now = config.now();
      const body = JSON.stringify(await webhookEvent(this.context, delivery, render, now));
      const timestamp = Math.floor(now / 1000);
      const response = await this.send(delivery.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(config.webhooks.timeoutMs),
        headers: {
          [Header.contentType]: 'application/json',
          [Header.webhookId]: delivery.id,
          [Header.webhookTimestamp]: String(timestamp),
          [Header.webhookSignature]: signWebhook(account.webhookSecret, delivery.id, timestamp, body),
        },
        body,
      });
      await response.body?.cancel().catch(() => {});
      status = response.status;
      if (status >= 200 && status < 300) {
        await outbox.delivered(delivery.id, attempts, status, config.now());
        return this.said(delivery, attempts, started, WebhookOutcome.delivered, status);
      }
      error = `answered HTTP ${status}`;
    } catch (caught) {
      if (caught instanceof AddressRefusedError)
        error = `"callback_url" host ${JSON.stringify(caught.hostname)} is not a public address`;
      else if ((caught as Error).name === 'TimeoutError') error = `no answer within ${config.webhooks.timeoutMs} ms`;
      else error = String((caught as Error).message ?? caught);
    }
    if (attempts >= config.webhooks.maxAttempts) {
      await outbox.abandon(delivery.id, attempts, status, error);
      return this.said(delivery, attempts, started, WebhookOutcome.abandoned, status, error);
    }
    const next = config.now() + retryDelay(attempts, config.webhooks.retryBaseMs, config.webhooks.maxDelayMs);
    await outbox.retryLater(delivery.id, attempts, next, status, error);
    this.said(delivery, attempts, started, WebhookOutcome.retry, status, error);
  }

  /**
   * Private-network destinations only in development (loopback http with `allowInsecureCallbacks`); elsewhere the
   * request connects only to the public addresses checked for it (`outboundFetch`).
   */
  private send(url: string, init: RequestInit): Promise<Response> {
    const { allowInsecureCallbacks, allowPrivateNetworkUrls, fetch } = this.context.config;
    const open = allowPrivateNetworkUrls || (allowInsecureCallbacks && isLoopbackHost(new URL(url).hostname));
    return outboundFetch(fetch, open)(url, init);
  }
}
