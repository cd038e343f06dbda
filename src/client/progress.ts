/** Stages of `cloudRender`, in order; each reports its own progress. */
export const CloudRenderStage = {
  signingIn: 'signing-in',
  zipping: 'zipping',
  uploading: 'uploading',
  queued: 'queued',
  rendering: 'rendering',
  downloading: 'downloading',
} as const;
export type CloudRenderStage = (typeof CloudRenderStage)[keyof typeof CloudRenderStage];

type ByteStage =
  typeof CloudRenderStage.zipping | typeof CloudRenderStage.uploading | typeof CloudRenderStage.downloading;

/** One progress report of `cloudRender`: bytes while zipping, uploading and downloading; frames while rendering. */
export type CloudRenderProgress =
  | { readonly stage: typeof CloudRenderStage.signingIn | typeof CloudRenderStage.queued }
  | { readonly stage: ByteStage; readonly bytes: number; readonly totalBytes: number | undefined }
  | {
      readonly stage: typeof CloudRenderStage.rendering;
      readonly framesDone: number;
      readonly framesTotal: number | undefined;
    };

const LABELS: Record<CloudRenderStage, string> = {
  'signing-in': 'Signing in',
  zipping: 'Packing',
  uploading: 'Uploading',
  queued: 'Queued',
  rendering: 'Rendering',
  downloading: 'Downloading',
};

/** How far a stage is, from 0 to 1; `undefined` when it cannot be told (no total yet). */
export function progressFraction(progress: CloudRenderProgress): number | undefined {
  const [done, total] =
    'bytes' in progress
      ? [progress.bytes, progress.totalBytes]
      : 'framesDone' in progress
        ? [progress.framesDone, progress.framesTotal]
        : [0, undefined];
  return total ? Math.min(1, Math.max(0, done / total)) : undefined;
}

/** A short human label: `Uploading 42%`, `Queued`. */
export function describeProgress(progress: CloudRenderProgress): string {
  const fraction = progressFraction(progress);
  const label = LABELS[progress.stage];
  return fraction === undefined ? label : `${label} ${Math.floor(fraction * 100)}%`;
}
