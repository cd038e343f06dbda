/** `fx cloud get <render_id>`: the render's record (fresh signed links); `--download` saves its video. */
import { FxClient } from '../../client/fx-client.js';
import type { Render } from '../../wire/responses.js';
import { booleanFlag, stringFlag, type Command, type CommandContext } from '../command.js';
import { DEFAULT_CLOUD_OUTPUT } from './cloud-flags.js';
import { showProgress } from './cloud-progress.js';
import { cloudCredentials } from '../credentials.js';
import { downloadToFile } from '../download-file.js';
import { OutputEvent, type Output } from '../output.js';
import { fillOutputPath } from '../output-path.js';

export const command: Command = {
  name: 'cloud get',
  summary: 'Shows a render: status, progress, settings, and a short-lived signed video_url once completed.',
  args: '<render_id>',
  positionals: { min: 1, max: 1 },
  flags: {
    download: { type: 'boolean', description: 'save the video (the render must be completed)' },
    output: {
      type: 'string',
      short: 'o',
      value: '<path>',
      description: `with --download: where the video goes (default ${DEFAULT_CLOUD_OUTPUT})`,
    },
  },
  flagRules: [{ flag: 'output', needs: 'download', why: 'only a download writes a file' }],
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out, signal } = context;
  const id = context.positionals[0]!;
  const { apiUrl, credentials } = await cloudCredentials(context.env);
  const client = new FxClient({ baseUrl: apiUrl, credentials });
  const render = await client.getRender(id, { signal });
  out.event(OutputEvent.result, { render });
  printRender(out, render);
  if (!booleanFlag(context, 'download')) return;
  const path = fillOutputPath(stringFlag(context, 'output') ?? DEFAULT_CLOUD_OUTPUT, {
    row: {},
    render_id: render.render_id,
    ext: render.format,
  });
  const saved = await downloadToFile(client, render, path, {
    signal,
    onProgress: (bytes, totalBytes) => showProgress(out, { stage: 'downloading', bytes, totalBytes }),
  });
  out.event(OutputEvent.result, {
    stage: 'downloaded',
    render_id: render.render_id,
    path: saved.path,
    bytes: saved.bytes,
  });
  out.line(saved.path);
}

function printRender(out: Output, render: Render): void {
  const rows: [string, unknown][] = [
    ['render_id', render.render_id],
    ['status', render.status],
    [
      'progress',
      `${render.progress.stage} ${render.progress.frames_done}/${render.progress.frames_total ?? '?'} frames`,
    ],
    ['settings', `${render.format} ${render.resolution} ${render.aspect_ratio} ${render.fps} fps ${render.quality}`],
    ['source', render.asset_id ?? render.url],
    ['composition', render.composition],
    ['variables', JSON.stringify(render.variables)],
    // Null where the render has none (a service older than them sends none either).
    ['time', render.time],
    ['thumbnail_time', render.thumbnail_time],
    ['range', render.range && `${render.range.start}–${render.range.end} s`],
    ['loop', render.loop],
    ['metadata', render.metadata && JSON.stringify(render.metadata)],
    ['created_at', render.created_at],
    ['finished_at', render.finished_at],
    ['failure', render.failure && `${render.failure.code}: ${render.failure.message}`],
    ['credits', render.credits],
    ['video_url', render.video_url],
    ['expires_at', render.expires_at],
  ];
  for (const [name, value] of rows) if (value !== null && value !== undefined) out.line(`${name.padEnd(12)} ${value}`);
  for (const issue of render.warnings) out.line(`${'warning'.padEnd(12)} ${issue.message}`);
}
