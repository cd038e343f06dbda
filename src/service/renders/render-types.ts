import type { AspectRatio, RenderFormat, RenderQuality, RenderResolution, TimeRange } from '../../render/types.js';
import type { Issue } from '../../runtime/issues.js';
import type { RenderStage, RenderStatus, WebhookEventType } from '../../wire/constants.js';

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
  /** A still's frame, in seconds, as submitted; null: the default (the middle). */
  readonly time: number | null;
  /** A video's or GIF's thumbnail, in seconds, as submitted; null: the default. */
  readonly thumbnail_time: number | null;
  /** Only this part of the timeline; null: all of it. */
  readonly range: TimeRange | null;
  /** A GIF's: plays forever or once; null for the other formats. */
  readonly loop: boolean | null;
  /** The submitter's, echoed in the record and the webhook. */
  readonly metadata: Record<string, unknown> | null;
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
  /** Seconds into the composition of the first frame: 0, the start of `range`, or the still's time. */
  readonly start: number;
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
  readonly stage: RenderStage;
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
  /**
   * When retention expired its files (`FX_SERVICE_RETENTION_DAYS` after it finished): from then on no link to them is
   * handed out, and they are removed once every link handed out before has expired.
   */
  readonly filesExpiredAt: number | null;
}

/** Why retention removes a render's files. */
export const FilesRemovalReason = { expired: 'expired', deleted: 'deleted' } as const;
export type FilesRemovalReason = (typeof FilesRemovalReason)[keyof typeof FilesRemovalReason];

/** A render whose files retention may remove now. */
export interface FilesDue {
  readonly id: string;
  readonly reason: FilesRemovalReason;
  readonly finishedAt: number | null;
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
