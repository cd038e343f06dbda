/**
 * `fx render [dir]`: a local render (src/render: Chromium + FFmpeg). Lint errors and refused variables stop it
 * before a browser starts; `--batch` renders once per row (see render-batch.ts).
 */
import { basename, extname, join } from 'node:path';
import { render } from '../../render/render.js';
import { FxError } from '../../runtime/errors.js';
import { extractCompositionMetadata } from '../../runtime/metadata.js';
import { assertMayRender } from '../../runtime/may-render.js';
import { validateVariables } from '../../runtime/values.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import type { Issue } from '../../runtime/issues.js';
import { DEFAULT_COMPOSITION, ErrorCode } from '../../wire/constants.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { lintProject, reportLint, toleratingMissingFiles } from './lint.js';
import { OutputEvent } from '../output.js';
import { fillOutputPath } from '../output-path.js';
import { showRenderProgress, type LocalRender } from './local-render.js';
import { renderBatchRows } from './render-batch.js';
import { DEFAULT_LOCAL_OUTPUT, RENDER_FLAGS, renderSettings } from './render-flags.js';
import { readText, variablesOf } from '../variables.js';

export const command: Command = {
  name: 'render',
  summary:
    'Renders a project to a video, a GIF or a still on this machine (Chromium + FFmpeg), once or once per --batch row.',
  args: '[dir]',
  positionals: { min: 0, max: 1 },
  flags: RENDER_FLAGS,
  flagRules: [
    { flag: 'resume', needs: 'batch', why: 'only a batch has a manifest to resume from' },
    { flag: 'batch-concurrency', needs: 'batch', why: 'one render has no rows to run at once' },
  ],
  notes: ['Needs chromium and ffmpeg on PATH. Ctrl-C stops the render and removes its partial file.'],
  run,
};

async function run(context: CommandContext): Promise<number | void> {
  const { out } = context;
  const projectDir = context.positionals[0] ?? '.';
  const composition = stringFlag(context, 'composition') ?? DEFAULT_COMPOSITION;
  const settings = renderSettings(context);
  const variables = (await variablesOf(context)) ?? {};
  const strict = context.values['strict-variables'] === true;
  const metadata = extractCompositionMetadata(await readText(join(projectDir, composition)));
  const linted = await lintProject(projectDir);
  reportLint(out, settings.allowMissingFiles ? toleratingMissingFiles(linted) : linted, false);
  const local: LocalRender = {
    base: { ...settings, projectDir, composition, signal: context.signal },
    declarations: metadata.variables,
    strict,
    name: basename(composition, extname(composition)),
  };
  const batch = stringFlag(context, 'batch');
  if (batch !== undefined) return renderBatchRows(context, local, variables, batch);

  for (const issue of checkValues(variables, local.declarations, strict)) out.warning(issue.message, { issue });
  const outputPath = fillOutputPath(stringFlag(context, 'output') ?? DEFAULT_LOCAL_OUTPUT, {
    row: variables,
    name: local.name,
    ext: settings.format,
  });
  const result = await render({
    ...local.base,
    variables,
    outputPath,
    onProgress: (progress) => showRenderProgress(out, progress),
  });
  for (const issue of result.issues ?? []) out.warning(issue.message, { issue });
  out.event(OutputEvent.result, {
    path: result.videoPath,
    thumbnail: result.thumbnailPath,
    width: result.width,
    height: result.height,
    fps: result.fps,
    frames: result.frames,
    duration: result.duration,
    start: result.start,
  });
  out.line(result.videoPath);
}

/** The service's rule (`assertMayRender`), locally: errors refuse the render, warnings too with `--strict-variables`. */
export function checkValues(
  values: Readonly<Record<string, unknown>>,
  declarations: readonly VariableDeclaration[],
  strict: boolean,
): Issue[] {
  const issues = validateVariables(values, declarations, { path: ['variables'] });
  return assertMayRender(
    issues,
    strict,
    (refused) =>
      new FxError(
        ErrorCode.renderProjectInvalid,
        `${refused.length} variable issue(s), nothing rendered; first: ${refused[0].message}`,
        { issues: refused },
      ),
  );
}
