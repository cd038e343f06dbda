// docs/errors.md lists every stable code a user can meet, one row each: this test fails when a code table holds a
// code the page does not list, or the page lists a code no table holds, so the page stays true as codes come and go.
//
// Tables are imported from src/ (through tsx). The few codes that live outside an `as const` table are read from
// their file's text with a regex: the frame runtime's `script_error` and `font_source_refused` (src/runtime/frame
// needs a browser at import), the union types of `DatabaseError` and `PasswordError`, `OAuthSettingsError`'s field,
// and the batch manifest's `download_failed` fallback.
//
// Left out, on purpose, because no caller ever sees them:
// - `address_not_public` (AddressRefusedError, src/render/egress-fetch.ts): always caught and turned into
//   `url_not_allowed`, a webhook delivery error text, or a blocked-request warning.
// - `work_limit_busy` (WorkLimitBusyError, src/service/oauth/work-limit.ts): caught; the sign-in page answers 503.
// - `commit_outcome_unknown` (DatabaseError): handled by the idempotency layer; the request answers
//   `internal_error` and its key stays in flight (docs/service.md describes it).
// - zod's `custom` (src/runtime/declaration-schemas.ts): rewritten into our declaration codes before it leaves.
// - `ExitCode` (src/cli/exit-codes.ts): numbers, not codes; docs/errors.md explains them in its opening paragraph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FxErrorCode } from '../src/elements/constants.js';
import { FontSourceIssueCode } from '../src/elements/font-sources.js';
import { FxVariablesPanelErrorCode } from '../src/elements/panel-constants.js';
import { FxRenderButtonErrorCode } from '../src/elements/render-button-constants.js';
import { AuthErrorCode } from '../src/auth/errors.js';
import { CliErrorCode } from '../src/cli/errors.js';
import { BatchErrorCode } from '../src/client/batch-rows.js';
import { CsvErrorCode } from '../src/client/csv.js';
import { ClientErrorCode } from '../src/client/errors.js';
import { ProjectSourceErrorCode } from '../src/client/zip/errors.js';
import { AudioIssueCode } from '../src/render/audio.js';
import { RenderErrorCode } from '../src/render/errors.js';
import { NetworkIssueCode } from '../src/render/network-policy.js';
import { CompileIssueCode } from '../src/runtime/compile-codes.js';
import { RuntimeErrorCode } from '../src/runtime/errors.js';
import { BindingIssueCode, DeclarationIssueCode, LayoutIssueCode, ValueIssueCode } from '../src/runtime/issues.js';
import { LintCode } from '../src/runtime/lint.js';
import { MetadataIssueCode } from '../src/runtime/root-metadata.js';
import { TimelineDurationCode } from '../src/runtime/timeline-duration.js';
import { TimingIssueCode } from '../src/runtime/timing.js';
import { ConfigIssueCode, ServiceConfigErrorCode } from '../src/service/config-check.js';
import { ChunkSettingsErrorCode } from '../src/service/jobs/chunk-settings.js';
import { StorageErrorCode } from '../src/service/storage/blob-storage.js';
import { S3SettingsErrorCode } from '../src/service/storage/s3-settings.js';
import { ErrorCode, FailureCode } from '../src/wire/constants.js';
import { ZipErrorCode } from '../src/wire/zip-limits.js';

const TABLES: Record<string, Readonly<Record<string, string>>> = {
  AudioIssueCode,
  AuthErrorCode,
  BatchErrorCode,
  BindingIssueCode,
  ChunkSettingsErrorCode,
  ClientErrorCode,
  CliErrorCode,
  CompileIssueCode,
  ConfigIssueCode,
  CsvErrorCode,
  DeclarationIssueCode,
  ErrorCode,
  FailureCode,
  FontSourceIssueCode,
  FxErrorCode,
  FxRenderButtonErrorCode,
  FxVariablesPanelErrorCode,
  LayoutIssueCode,
  LintCode,
  MetadataIssueCode,
  NetworkIssueCode,
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
/** The string literals of the `readonly code: 'a' | 'b'` union in `path`. */
const unionCodes = (path: string) => {
  const union = /readonly code: ((?:'[a-z_]+'\s*\|?\s*)+)/.exec(source(path));
  assert.ok(union, `${path}: no "readonly code:" union found`);
  return matches(union[1]!, /'([a-z_]+)'/g);
};

/** Codes outside an `as const` table, read from their file's text (see the top of this file). */
const LITERAL_CODES: Record<string, readonly string[]> = {
  'src/runtime/frame/index.ts': matches(source('src/runtime/frame/index.ts'), /code: '([a-z_]+)'/g),
  'src/runtime/frame/fonts.ts': matches(source('src/runtime/frame/fonts.ts'), /issue\(\s*'([a-z_]+)'/g),
  'src/service/db/errors.ts': unionCodes('src/service/db/errors.ts'),
  'src/service/oauth/passwords.ts': unionCodes('src/service/oauth/passwords.ts'),
  'src/service/oauth/settings.ts': matches(source('src/service/oauth/settings.ts'), /readonly code = '([a-z_]+)'/g),
  'src/cli/cloud-batch.ts': matches(source('src/cli/cloud-batch.ts'), /error\.code : '([a-z_]+)'/g),
};

function sourceCodes(): Set<string> {
  const codes = new Set<string>();
  for (const table of Object.values(TABLES)) for (const code of Object.values(table)) codes.add(code);
  for (const [path, found] of Object.entries(LITERAL_CODES)) {
    assert.ok(found.length > 0, `${path}: the regex found no code; has the file changed shape?`);
    for (const code of found) codes.add(code);
  }
  for (const code of EXCLUDED) codes.delete(code);
  return codes;
}

/** The first column of the page's one table, in order. */
function documentedCodes(): string[] {
  return matches(source('docs/errors.md'), /^\| `([^`]+)` \|/gm);
}

test('the regexes find the codes they are meant to', () => {
  assert.ok(LITERAL_CODES['src/runtime/frame/index.ts']!.includes('script_error'));
  assert.ok(LITERAL_CODES['src/service/db/errors.ts']!.includes('commit_outcome_unknown'));
});

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
