import type { AspectRatio, RenderFormat, RenderQuality, RenderResolution, RenderStage } from '../../render/types.js';
import type { Issue } from '../../runtime/issues.js';
import type { RenderStatus, WebhookEventType } from '../../wire/constants.js';

/** A validated submit body with defaults filled in; echoed as is in the render record. */
export interface RenderRequest {
  readonly asset_id: string | null;
  readonly url: string | null;
  /** A `url` render's page after redirects: its folder is what the composition may have the compiler read. */
  readonly page_url: string | null;
  readonly composition: string;
  readonly fps: number;
  readonly quality: RenderQuality;
  readonly format: RenderFormat;
  readonly resolution: RenderResolution;
  readonly aspect_ratio: AspectRatio;
  readonly variables: Record<string, unknown>;
  readonly strict_variables: boolean;
  /** Render even when the project lacks files the composition names (they show as missing). */
  readonly allow_missing_files: boolean;
  readonly callback_url: string | null;
  readonly callback_id: string | null;
}

export interface RenderFailure {
  readonly code: string;
  readonly message: string;
}

export interface RenderOutput {
  readonly width: number;
  readonly height: number;
  readonly frames: number;
  readonly duration: number;
}

/** A render as stored (times in epoch milliseconds). */
export interface RenderRow {
  readonly seq: number;
  readonly id: string;
  readonly accountId: string;
  readonly credentialId: string;
  readonly status: RenderStatus;
  readonly request: RenderRequest;
  readonly warnings: readonly Issue[];
  /** Storage prefix of the project the renderer reads. */
  readonly projectKey: string;
  readonly stage: RenderStage | 'queued';
  readonly framesDone: number;
  readonly framesTotal: number | null;
  readonly attempts: number;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly failure: RenderFailure | null;
  readonly videoKey: string | null;
  readonly thumbnailKey: string | null;
  readonly output: RenderOutput | null;
  readonly credits: number | null;
  readonly deletedAt: number | null;
}

export type NewRender = Pick<
  RenderRow,
  'id' | 'accountId' | 'credentialId' | 'request' | 'warnings' | 'projectKey' | 'createdAt'
>;

export interface CompletedRender {
  /** Submit warnings plus the compile problems the renderer reported without failing. */
  readonly warnings: readonly Issue[];
  readonly videoKey: string;
  readonly thumbnailKey: string;
  readonly output: RenderOutput;
  readonly credits: number;
  readonly finishedAt: number;
  /**
   * The attempt that produced it (`attempts` as the claim returned): a fencing token. A render another worker took
   * over since (its lease ran out) is on a later attempt, and this result is refused.
   */
  readonly attempt: number;
}

/** A webhook to send, created in the same transaction as the state change that causes it. */
export interface NewWebhookDelivery {
  readonly id: string;
  readonly renderId: string;
  readonly accountId: string;
  readonly url: string;
  readonly eventType: WebhookEventType;
  readonly eventTime: number;
}

export interface Usage {
  readonly creditsUsed: number;
  readonly rendersTotal: number;
  readonly rendersCompleted: number;
  readonly rendersFailed: number;
}
