// docs/errors.md lists every stable code a user can meet, one row each: this test fails when a code table holds a
// code the page does not list, or the page lists a code no table holds, so the page stays true as codes come and go.
//
// Tables are imported from src/ (through tsx); every code lives in an `as const` table, and a last test fails when
// a code is written as a string literal outside its table.
//
// Left out, on purpose, because no caller ever sees them:
// - `address_not_public` (AddressRefusedError, src/render/network/egress-fetch.ts): always caught and turned into
//   `url_not_allowed`, a webhook delivery error text, or a blocked-request warning.
// - `work_limit_busy` (WorkLimitBusyError, src/service/oauth/work-limit.ts): caught; the sign-in page answers 503.
// - `commit_outcome_unknown` (DatabaseError): handled by the idempotency layer; the request answers
//   `internal_error` and its key stays in flight (docs/service.md describes it).
// - zod's `custom` (src/runtime/declaration-schemas.ts): rewritten into our declaration codes before it leaves.
// - `ExitCode` (src/cli/exit-codes.ts): numbers, not codes; docs/errors.md explains them in its opening paragraph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { FxCompositionErrorCode } from '../src/elements/internal/constants.js';
import { FontSourceIssueCode } from '../src/elements/composition/font-sources.js';
import { FxVariablesPanelErrorCode } from '../src/elements/panel/constants.js';
import { FxRenderButtonErrorCode } from '../src/elements/render-button/constants.js';
import { AuthErrorCode } from '../src/auth/errors.js';
import { CliErrorCode } from '../src/cli/errors.js';
import { BatchErrorCode } from '../src/client/batch-rows.js';
import { CsvErrorCode } from '../src/client/csv.js';
import { ClientErrorCode } from '../src/client/errors.js';
import { ProjectSourceErrorCode } from '../src/client/zip/errors.js';
import { AudioIssueCode } from '../src/render/audio.js';
import { RenderErrorCode } from '../src/render/errors.js';
import { NetworkIssueCode } from '../src/render/network/policy.js';
import { CompileIssueCode } from '../src/runtime/compile/codes.js';
import { RuntimeErrorCode } from '../src/runtime/errors.js';
import { BindingIssueCode, DeclarationIssueCode, LayoutIssueCode, ValueIssueCode } from '../src/runtime/issues.js';
import { LintCode } from '../src/runtime/lint.js';
import { MetadataIssueCode } from '../src/runtime/root-metadata.js';
import { TimelineDurationCode } from '../src/runtime/timeline-duration.js';
import { TimingIssueCode } from '../src/runtime/timing.js';
import { BackupErrorCode } from '../src/service/backup/errors.js';
import { ConfigIssueCode, ServiceConfigErrorCode } from '../src/service/config-check.js';
import { DatabaseErrorCode } from '../src/service/db/errors.js';
import { PasswordErrorCode } from '../src/service/oauth/passwords.js';
import { OAuthSettingsErrorCode } from '../src/service/oauth/settings.js';
import { FrameCode } from '../src/runtime/frame/frame-codes.js';
import { ChunkSettingsErrorCode } from '../src/service/jobs/chunk-settings.js';
import { StorageErrorCode } from '../src/service/storage/blob-storage.js';
import { S3SettingsErrorCode } from '../src/service/storage/s3-settings.js';
import { ErrorCode, FailureCode, RenderWarningCode } from '../src/wire/constants.js';
import { ZipErrorCode } from '../src/wire/zip-limits.js';
import { ExportAudioIssueCode } from '../src/export/audio-mix.js';
import { ExportErrorCode } from '../src/export/codes.js';
import { CaptureFailureCode, CaptureRefusalCode } from '../src/runtime/capture-codes.js';

const TABLES: Record<string, Readonly<Record<string, string>>> = {
  AudioIssueCode,
  AuthErrorCode,
  BackupErrorCode,
  BatchErrorCode,
  BindingIssueCode,
  CaptureFailureCode,
  CaptureRefusalCode,
  ChunkSettingsErrorCode,
  ClientErrorCode,
  CliErrorCode,
  CompileIssueCode,
  ConfigIssueCode,
  CsvErrorCode,
  DatabaseErrorCode,
  DeclarationIssueCode,
  ErrorCode,
  ExportAudioIssueCode,
  ExportErrorCode,
  FailureCode,
  RenderWarningCode,
  FontSourceIssueCode,
  FrameCode,
  FxCompositionErrorCode,
  FxRenderButtonErrorCode,
  FxVariablesPanelErrorCode,
  LayoutIssueCode,
  LintCode,
  MetadataIssueCode,
  NetworkIssueCode,
  OAuthSettingsErrorCode,
  PasswordErrorCode,
  ProjectSourceErrorCode,
  RenderErrorCode,
  RuntimeErrorCode,
  S3SettingsErrorCode,
  ServiceConfigErrorCode,
  StorageErrorCode,
  TimelineDurationCode,
  TimingIssueCode,
  ValueIssueCode,
  ZipErrorCode,
};

const EXCLUDED = new Set(['address_not_public', 'work_limit_busy', 'commit_outcome_unknown']);

const source = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const matches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((found) => found[1]!);

function sourceCodes(): Set<string> {
  const codes = new Set<string>();
  for (const table of Object.values(TABLES)) for (const code of Object.values(table)) codes.add(code);
  for (const code of EXCLUDED) codes.delete(code);
  return codes;
}

/** The first column of the page's one table, in order. */
function documentedCodes(): string[] {
  return matches(source('docs/errors.md'), /^\| `([^`]+)` \|/gm);
}

test('docs/errors.md lists every code a table holds', () => {
  const documented = new Set(documentedCodes());
  const missing = [...sourceCodes()].filter((code) => !documented.has(code)).sort();
  assert.deepEqual(missing, [], `add a row to docs/errors.md for: ${missing.join(', ')}`);
});

test('docs/errors.md lists no code that no table holds', () => {
  const known = sourceCodes();
  const stale = documentedCodes().filter((code) => !known.has(code));
  assert.deepEqual(stale, [], `remove (or exclude here) the rows of: ${stale.join(', ')}`);
});

test('docs/errors.md has one row per code, sorted', () => {
  const codes = documentedCodes();
  assert.deepEqual(
    codes.filter((code, index) => codes.indexOf(code) !== index),
    [],
  );
  assert.deepEqual(codes, [...codes].sort());
});

/** Every `.ts` file under src/, by path. */
function sourceFiles(dir = 'src'): string[] {
  return readdirSync(new URL(`../${dir}`, import.meta.url), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(`${dir}/${entry.name}`)
      : entry.name.endsWith('.ts')
        ? [`${dir}/${entry.name}`]
        : [],
  );
}

/** Where a string literal is used as a code: after `code:`/`code =`/`===`, `??`, a ternary's `:`, `Error(`, `issue(`, or alone on an argument line. */
const CODE_USE =
  /(?:\bcode\s*(?:===|!==|[:=])\s*|\?\?\s*|\?[^?:'"]*:\s*|\bError\(\s*|\bissue\(\s*|^\s*)'([a-z][a-z0-9_-]*)'(?=,?\s*$|[,)\s;])/g;
/** Literals that stay, with why. */
const LITERAL_ALLOWED = new Set([
  // Serialized into the page by page.evaluate: it cannot import the table.
  'src/render/compile-in-browser.ts',
]);

test('codes are said once: no code is written as a string literal outside its table', () => {
  // The excluded ones never reach a caller: their classes keep them as a field.
  const codes = sourceCodes();
  const found: string[] = [];
  for (const path of sourceFiles()) {
    if (LITERAL_ALLOWED.has(path)) continue;
    source(path)
      .split('\n')
      .forEach((line, index) => {
        // A table entry (`name: 'code',`, one or several on a line), or a comment naming a code.
        if (/^\s*(\/\/|\*|\/\*\*)/.test(line)) return;
        const code = line.replace(/\b(?!code\b)\w+: '[\w-]+'(?=\s*[,}]|,?$)/g, '');
        for (const [, literal] of code.matchAll(CODE_USE))
          if (codes.has(literal!)) found.push(`${path}:${index + 1}: '${literal}'`);
      });
  }
  assert.deepEqual(found, []);
});
