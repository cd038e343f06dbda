/**
 * What `<fx-composition>` knows of its composition as a project: the files its last compile read or named, plus
 * the files its current variable values name, mapped to zip paths (src/client/zip/embed-files.ts).
 */
import {
  ENTRY_PATH,
  fetchProjectFiles,
  projectDependencies,
  type EmbedProject,
  type ProjectDependency,
  type ProjectFilesOptions,
} from '../../client/zip/embed-files.js';
import { ProjectSourceErrorCode, ZipError } from '../../client/zip/errors.js';
import type { ProjectEntry } from '../../client/zip/sources.js';
import { variableValueFiles } from '../../runtime/compile/dependencies.js';
import { parseUrl } from '../../runtime/data.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';

/** The element's inputs the project reads. */
interface ProjectHost {
  readonly srcdoc: string | null;
  readonly allowCompositionReadsUnder: readonly string[];
  readonly variables: Record<string, unknown>;
  readonly declarations: readonly VariableDeclaration[];
}

export class ProjectFiles {
  #loaded: { entryUrl: string; entryHtml: string | undefined; urls: readonly string[] } | undefined;

  constructor(private readonly host: ProjectHost) {}

  /** A compile finished: `urls` are its dependencies, `entryUrl` what it compiled (or where its markup stood). */
  compiled(urls: readonly string[], entryUrl: string, isMarkup: boolean): void {
    this.#loaded = { entryUrl, entryHtml: isMarkup ? (this.host.srcdoc ?? '') : undefined, urls };
  }

  /** The project's files with their zip paths; empty before the first load. */
  get dependencies(): ProjectDependency[] {
    const project = this.#project();
    return project ? projectDependencies(project).files : [];
  }

  /** Fetches the project's files as `{ path, data }` entries; refused before the first load. */
  async fetch(options?: ProjectFilesOptions): Promise<ProjectEntry[]> {
    const project = this.#project();
    if (!project)
      throw new ZipError(
        ProjectSourceErrorCode.notLoaded,
        'the composition has not loaded yet: wait for "ready" (or "loadedmetadata")',
        { path: ENTRY_PATH },
      );
    return fetchProjectFiles(project, options);
  }

  /** The last compile's files with those the current image and font values name (relative ones against the entry). */
  #project(): EmbedProject | undefined {
    if (!this.#loaded) return undefined;
    const types = new Map(this.host.declarations.map((declaration) => [declaration.id, declaration.type as string]));
    const valueFiles = Object.entries(this.host.variables).flatMap(([id, value]) =>
      variableValueFiles(types.get(id) ?? '', value),
    );
    const resolved = valueFiles
      .map((file) => parseUrl(file, this.#loaded!.entryUrl)?.href)
      .filter((url): url is string => url !== undefined);
    const urls = [...this.#loaded.urls, ...resolved];
    return { ...this.#loaded, urls, allowCompositionReadsUnder: this.host.allowCompositionReadsUnder };
  }
}
