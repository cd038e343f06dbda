import type { SignedLinks } from './links.js';
import type { RenderRow } from './render-types.js';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** The public render record (openapi.yaml `Render`). */
export function renderRecord(render: RenderRow, links: SignedLinks) {
  return {
    render_id: render.id,
    status: render.status,
    progress: { stage: render.stage, frames_done: render.framesDone, frames_total: render.framesTotal },
    created_at: iso(render.createdAt)!,
    started_at: iso(render.startedAt),
    finished_at: iso(render.finishedAt),
    attempts: render.attempts,
    failure: render.failure,
    credits: render.credits,
    output: render.output,
    ...links,
    files_expired_at: iso(render.filesExpiredAt),
    ...render.request,
    warnings: render.warnings,
  };
}
