/**
 * `fx preview [dir]`: serves the project (the renderer's project server: 127.0.0.1, random port, a secret base
 * path, nothing outside the project) with a preview page, and bumps a version document on every file change so
 * the page reloads the composition where it was.
 */
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { IGNORE_FILE, ignoreRules } from '../../client/zip/ignore.js';
import { bundleDir } from '../../render/bundles.js';
import { startProjectServer } from '../../render/project-server.js';
import { DEFAULT_COMPOSITION } from '../../wire/constants.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { OutputEvent } from '../output.js';
import { previewPage, VERSION_DOCUMENT } from './preview-page.js';
import { readText } from '../variables.js';

const DEBOUNCE_MS = 100;
const PREVIEW_DOCUMENT = 'preview';

export const command: Command = {
  name: 'preview',
  summary:
    'Serves the project with <fx-composition> and a variables form on 127.0.0.1; edits to its files reload the preview where it was. Ctrl-C stops it.',
  args: '[dir]',
  positionals: { min: 0, max: 1 },
  flags: {
    composition: { type: 'string', short: 'c', value: '<file>', description: 'entry HTML file (default index.html)' },
  },
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out, signal } = context;
  const projectDir = context.positionals[0] ?? '.';
  const entry = stringFlag(context, 'composition') ?? DEFAULT_COMPOSITION;
  await readText(join(projectDir, entry));
  const server = await startProjectServer(projectDir, bundleDir());
  let version = 0;
  const publish = () => {
    server.addDocument(VERSION_DOCUMENT, String(version));
    return server.addDocument(PREVIEW_DOCUMENT, previewPage(entry, version));
  };
  const page = publish();
  const rules = ignoreRules(await readFile(join(projectDir, IGNORE_FILE), 'utf8').catch(() => undefined));
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(projectDir, { recursive: true }, (_event, name) => {
    const path = name ? relative('.', String(name)).split('\\').join('/') : '';
    if (path && rules.ignores(path)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      version += 1;
      publish();
      out.event(OutputEvent.info, { message: 'changed', path, version });
      out.note(`changed ${path || projectDir}: reloading`);
    }, DEBOUNCE_MS);
  });
  out.event(OutputEvent.info, { message: 'serving', url: page });
  out.line(page);
  out.note('Ctrl-C stops the preview');
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  clearTimeout(timer);
  watcher.close();
  await server.close();
}
