/** `fx lint [dir]`: `lintComposition` over every HTML file of the project (the upload's ignore set applies). */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path, { dirname, join, resolve } from 'node:path';
import { readProjectDirectory } from '../../client/zip/directory.node.js';
import { LintCode, lintComposition } from '../../runtime/lint.js';
import type { Issue } from '../../runtime/issues.js';
import type { Command, CommandContext } from '../command.js';
import { cliError, CliErrorCode } from '../errors.js';
import { OutputEvent, type Output } from '../output.js';
import { readText } from '../variables.js';

export const command: Command = {
  name: 'lint',
  summary:
    'Checks every composition file (*.html) of a project: declarations, defaults, bindings, unsafe media, files it names that the project lacks. Errors exit non-zero.',
  args: '[dir]',
  positionals: { min: 0, max: 1 },
  run,
};

export interface LintedFile {
  readonly file: string;
  readonly findings: readonly Issue[];
}

/** Lints every HTML file under `directory`; sub-compositions are read relative to the file that names them. */
export async function lintProject(directory: string): Promise<LintedFile[]> {
  const files = (await readProjectDirectory(directory))
    .filter((file) => /\.html?$/i.test(file.path))
    .sort((a, b) => a.path.localeCompare(b.path));
  const root = resolve(directory);
  // What the local render serves: the folder as it is on disk (the upload's ignore set is the dry-run's business).
  const hasFile = (path: string) => {
    const target = resolve(root, path);
    return isInsideFolder(root, target) && existsSync(target) && statSync(target).isFile();
  };
  const readFile = (path: string) => {
    const target = resolve(root, path);
    return isInsideFolder(root, target) ? readFileSync(target, 'utf8') : undefined;
  };
  const linted: LintedFile[] = [];
  for (const file of files) {
    const html = await readText(join(directory, file.path));
    const readSource = (path: string) => {
      const target = resolve(root, dirname(file.path), path);
      if (!isInsideFolder(root, target)) return undefined;
      try {
        return readFileSync(target, 'utf8');
      } catch {
        return undefined;
      }
    };
    linted.push({
      file: file.path,
      findings: lintComposition(html, { readSource, hasFile, readFile, file: file.path }),
    });
  }
  return linted;
}

/**
 * Whether `target` lies inside the folder `root` (both absolute), by `relative` and the platform's separator: a
 * sibling that shares a prefix (`/p` and `/p-evil`), another drive, or `root` itself are not inside.
 */
export function isInsideFolder(root: string, target: string, paths: path.PlatformPath = path): boolean {
  const relative = paths.relative(root, target);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${paths.sep}`) && !paths.isAbsolute(relative);
}

/** `linted` with `project_file_missing` errors as warnings: for a render told `--allow-missing-files`. */
export function toleratingMissingFiles(linted: readonly LintedFile[]): LintedFile[] {
  return linted.map(({ file, findings }) => ({
    file,
    findings: findings.map((finding) =>
      finding.code === LintCode.projectFileMissing ? { ...finding, severity: 'warning' as const } : finding,
    ),
  }));
}

/** Prints findings; throws `cli_lint_failed` when any is an error. The summary is the result of `fx lint`, a note otherwise. */
export function reportLint(out: Output, linted: readonly LintedFile[], asResult = true): void {
  for (const { file, findings } of linted) {
    for (const finding of findings) {
      out.event(OutputEvent.warning, { file, ...finding });
      const label = finding.severity === 'error' ? out.style('red', 'error') : out.style('yellow', 'warning');
      out.note(`${file}: ${label} ${finding.code}: ${finding.message}`);
    }
  }
  const errors = linted.reduce(
    (sum, { findings }) => sum + findings.filter((finding) => finding.severity === 'error').length,
    0,
  );
  const warnings = linted.reduce((sum, { findings }) => sum + findings.length, 0) - errors;
  if (asResult) out.event(OutputEvent.result, { files: linted.length, errors, warnings });
  const missing = linted.some(({ findings }) =>
    findings.some((finding) => finding.code === LintCode.projectFileMissing && finding.severity === 'error'),
  );
  if (errors > 0)
    throw cliError(
      CliErrorCode.lintFailed,
      `${errors} lint error(s) and ${warnings} warning(s) in ${linted.length} file(s)${missing ? '; add the missing files, or render anyway with "fx render --allow-missing-files"' : ''}`,
    );
  const summary = `${linted.length} file(s) checked: no errors, ${warnings} warning(s)`;
  if (asResult) out.line(summary);
  else out.note(summary);
}

async function run(context: CommandContext): Promise<void> {
  const directory = context.positionals[0] ?? '.';
  const linted = await lintProject(directory);
  if (linted.length === 0) throw cliError(CliErrorCode.fileUnreadable, `no .html file in ${JSON.stringify(directory)}`);
  reportLint(context.out, linted);
}
