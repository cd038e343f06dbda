import { CloudRenderStage, type CloudRenderProgress } from '../client/progress.js';

/**
 * An export reports progress in the client's stages, so a page (and `<fx-render-button>`) shows an export and a
 * cloud render alike: `rendering`, with frames captured and encoded of the total (undefined while the frame loads).
 */
export type ExportProgress = Extract<CloudRenderProgress, { readonly stage: typeof CloudRenderStage.rendering }>;

export const exportProgress = (framesDone: number, framesTotal: number | undefined): ExportProgress => ({
  stage: CloudRenderStage.rendering,
  framesDone,
  framesTotal,
});
