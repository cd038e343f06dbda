/** `fx cloud render [project_dir]`: zip, upload, submit, wait, download — over the client's `cloudRender`. */
import {
  cloudRender,
  waitForCompleted,
  type CloudProject,
  type CloudRenderOptions,
} from '../../client/cloud-render.js';
import { FxClient } from '../../client/fx-client.js';
import { readProjectDirectory } from '../../client/zip/directory.node.js';
import { DEFAULT_COMPOSITION } from '../../wire/constants.js';
import type { Render } from '../../wire/responses.js';
import { cloudBatch, entryName } from './cloud-batch.js';
import { showProgress } from './cloud-progress.js';
import { CLOUD_RENDER_FLAGS, CLOUD_RENDER_RULES, cloudRenderOptions, DEFAULT_CLOUD_OUTPUT } from './cloud-flags.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { cloudCredentials } from '../credentials.js';
import { downloadToFile } from '../download-file.js';
import { OutputEvent } from '../output.js';
import { fillOutputPath, Placeholder } from '../output-path.js';
import { variablesOf } from '../variables.js';
import { checkUpload, serviceDryRun } from './cloud-dry-run.js';

export const command: Command = {
  name: 'cloud render',
  summary:
    'Renders a project on the /v3 service: zips and uploads it (or uses --asset-id/--url), submits, polls, and downloads the video, GIF or still.',
  args: '[project_dir]',
  positionals: { min: 0, max: 1 },
  flags: CLOUD_RENDER_FLAGS,
  flagRules: CLOUD_RENDER_RULES,
  notes: [
    'Ctrl-C stops waiting (the render goes on at the service; `fx cloud get <render_id> --download` fetches it later).',
  ],
  run,
};

async function run(context: CommandContext): Promise<number | void> {
  const { out, values } = context;
  const options = cloudRenderOptions(context);
  const variables = await variablesOf(context);
  const directory = context.positionals[0] ?? '.';
  const composition = stringFlag(context, 'composition') ?? DEFAULT_COMPOSITION;
  const assetId = stringFlag(context, 'asset-id');
  const url = stringFlag(context, 'url');
  const template = stringFlag(context, 'output') ?? DEFAULT_CLOUD_OUTPUT;
  // The local checks first: they need no credential, and a refusal costs no upload.
  if (values['dry-run']) await checkUpload(out, directory, assetId ?? url, values['allow-missing-files'] === true);
  const project: CloudProject =
    url !== undefined
      ? { url }
      : assetId !== undefined
        ? { assetId, composition }
        : { files: await readProjectDirectory(directory), composition };
  const batchPath = stringFlag(context, 'batch');
  const { apiUrl, credentials } = await cloudCredentials(context.env);
  const renderOptions: CloudRenderOptions = {
    ...options,
    baseUrl: apiUrl,
    credentials,
    ...(variables ? { variables } : {}),
  };
  if (values['dry-run']) return serviceDryRun(out, project, renderOptions);
  if (batchPath !== undefined) return cloudBatch(context, project, renderOptions, batchPath, template);
  // Checked before any request: a template naming a key the values lack fails now, not after the render.
  const name = entryName(project);
  fillOutputPath(template, { row: variables ?? {}, name }, [Placeholder.renderId, Placeholder.ext]);

  const { render: queued, warnings } = await cloudRender(project, {
    ...renderOptions,
    noWait: true,
    onProgress: (progress) => showProgress(out, progress),
  }).catch((error: unknown) => {
    if (context.signal.aborted)
      out.note('interrupted before the render was submitted: nothing runs at the service, nothing to resume');
    throw error;
  });
  for (const issue of warnings) out.warning(issue.message, { issue });
  out.event(OutputEvent.result, { stage: 'submitted', render_id: queued.render_id, status: queued.status });
  if (context.values['no-wait']) {
    out.line(queued.render_id);
    return;
  }
  out.note(`submitted ${queued.render_id}`);
  const client = new FxClient(renderOptions);
  const path = fillOutputPath(template, {
    row: variables ?? {},
    name,
    render_id: queued.render_id,
    ext: queued.format,
  });
  const saved = await finish(context, client, queued, path, renderOptions);
  out.event(OutputEvent.result, {
    stage: 'downloaded',
    render_id: saved.render.render_id,
    path: saved.path,
    bytes: saved.bytes,
    render: saved.render,
  });
  out.line(saved.path);
}

/**
 * Waits for a submitted render with the client's wait (a failed render rejects with its code) and downloads it;
 * Ctrl-C says how to pick it up later.
 */
async function finish(
  context: CommandContext,
  client: FxClient,
  queued: Render,
  path: string,
  options: CloudRenderOptions,
) {
  const { out, signal } = context;
  try {
    const done = await waitForCompleted(client, queued.render_id, { ...options, signal }, (progress) =>
      showProgress(out, progress),
    );
    return await downloadToFile(client, done, path, {
      signal,
      onProgress: (bytes, totalBytes) => showProgress(out, { stage: 'downloading', bytes, totalBytes }),
    });
  } catch (error) {
    if (signal.aborted) {
      out.event(OutputEvent.info, {
        message: 'interrupted',
        render_id: queued.render_id,
        resume: `fx cloud get ${queued.render_id} --download`,
      });
      out.note(
        `interrupted; the render goes on at the service. Resume: fx cloud get ${queued.render_id} --download -o ${path}`,
      );
    }
    throw error;
  }
}
