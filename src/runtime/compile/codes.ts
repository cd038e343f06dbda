/**
 * Codes of compile problems. Broken sub-compositions and refused files are issues (the rest still plays); a broken
 * entry throws.
 */
export const CompileIssueCode = {
  entryNotFound: 'composition_not_found',
  entryEmpty: 'composition_empty',
  entryInvalid: 'composition_invalid',
  tooLarge: 'composition_too_large',
  subNotFound: 'subcomposition_not_found',
  subEmpty: 'subcomposition_empty',
  subInvalid: 'subcomposition_invalid',
  subUrlRefused: 'subcomposition_url_refused',
  subCycle: 'subcomposition_cycle',
  subTooDeep: 'subcomposition_too_deep',
  subTooLarge: 'subcomposition_too_large',
  /** A file the composition names is not in its project (its server answered 404 or 410); see missing-files.ts. */
  fileMissing: 'project_file_missing',
  /** An `<img crossorigin>` past the size limits: the compiler cannot inline it and the frame cannot load it. */
  imageTooLarge: 'image_too_large',
  /** A font, stylesheet or script past the size limits (sub-compositions have their own code). */
  fontTooLarge: 'font_too_large',
  stylesheetTooLarge: 'stylesheet_too_large',
  scriptTooLarge: 'script_too_large',
  /** More sub-composition instances than `limits.instances`: the hosts past it stay empty. */
  subTooMany: 'subcomposition_too_many',
  /** The compiled document would pass `limits.documentBytes`: the instance that crosses it stays empty. */
  compiledTooLarge: 'compiled_too_large',
  /** More distinct files than `limits.files`. */
  filesTooMany: 'files_too_many',
  /** A file the composition names lies outside the folders it may read (the entry's, `allowCompositionReadsUnder`). */
  urlOutsideScope: 'url_outside_scope',
  /** A file the composition names answered with a type its role does not take (a stylesheet that is HTML, …). */
  typeRefused: 'content_type_refused',
  /** `CompileOptions` themselves are malformed (an `allowCompositionReadsUnder` entry that is no URL). */
  optionsInvalid: 'compile_options_invalid',
} as const;
export type CompileIssueCode = (typeof CompileIssueCode)[keyof typeof CompileIssueCode];
