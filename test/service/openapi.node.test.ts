// openapi.yaml is the contract; these checks keep src/wire, the service's public names and the document in step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CompileIssueCode } from '../../src/runtime/compile/codes.js';
import { RenderErrorCode } from '../../src/render/errors.js';
import { renderRecord } from '../../src/service/renders/render-record.js';
import {
  API_KEY_PREFIX,
  DEFAULT_PAGE_SIZE,
  ErrorCode,
  FailureCode,
  Header,
  IDEMPOTENCY_KEY_PATTERN,
  IdPrefix,
  MAX_PAGE_SIZE,
  RENDER_STAGES,
  RenderStatus,
  Route,
  statusOf,
  WEBHOOK_SECRET_PREFIX,
  WebhookEventType,
} from '../../src/wire/constants.js';
import {
  ASPECT_RATIOS,
  GIF_FPS,
  MAX_FPS,
  METADATA_LIMITS,
  MIN_FPS,
  RENDER_FORMATS,
  RENDER_OPTIONS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
  RenderDefaults,
} from '../../src/wire/render-request.js';
import {
  accountSchema,
  assetSchema,
  dryRunSchema,
  issueSchema,
  renderListSchema,
  renderSchema,
} from '../../src/wire/responses.js';

const yaml = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');

/** The lines of the block that starts at `heading` and ends at the next line indented as much or less. */
function block(heading: RegExp): string[] {
  const lines = yaml.split('\n');
  const start = lines.findIndex((line) => heading.test(line));
  assert.ok(start >= 0, `no ${heading} in openapi.yaml`);
  const indent = lines[start]!.search(/\S/);
  const end = lines.findIndex((line, index) => index > start && line.trim() !== '' && line.search(/\S/) <= indent);
  return lines.slice(start + 1, end);
}

const listItems = (lines: string[]) =>
  lines.map((line) => /^\s+- (\S+)$/.exec(line)?.[1]).filter((item): item is string => item !== undefined);
const keysAt = (lines: string[], indent: number) =>
  lines
    .map((line) => new RegExp(`^ {${indent}}([a-z_]+):`).exec(line)?.[1])
    .filter((key): key is string => key !== undefined);

const errorCodeBlock = block(/^ {4}ErrorCode:$/);

test('every error code of the service is listed in openapi.yaml, and nothing else', () => {
  const documented = listItems(errorCodeBlock.slice(errorCodeBlock.findIndex((line) => /^\s+enum:$/.test(line))));
  assert.deepEqual([...documented].sort(), Object.values(ErrorCode).sort());
});

test('the status of every error code is the one openapi.yaml gives it', () => {
  // The description lists "<status> `code` · `code` …" groups; every code must appear under its own status.
  const description = errorCodeBlock
    .slice(
      0,
      errorCodeBlock.findIndex((line) => /^\s+type: string$/.test(line)),
    )
    .join(' ');
  const groups = description.split(/(?=\b\d{3} `)/).slice(1);
  const documented = groups.flatMap((group) =>
    [...group.matchAll(/`([a-z_]+)`/g)].map(([, code]) => [code!, Number(group.slice(0, 3))] as const),
  );
  assert.deepEqual(documented.map(([code]) => code).sort(), Object.values(ErrorCode).sort());
  for (const [code, status] of documented) assert.equal(statusOf(code as ErrorCode), status, code);
});

test('every route is a documented path', () => {
  const paths = block(/^paths:$/)
    .map((line) => /^ {2}(\/\S+):$/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined);
  assert.equal(paths.length, 8);
  for (const route of [
    Route.healthz,
    Route.readyz,
    Route.metrics,
    Route.assets,
    Route.renders,
    Route.render.replace(':render_id', '{render_id}'),
    Route.account,
    `${Route.files}/renders/{render_id}/{file}`,
  ]) {
    assert.ok(paths.includes(route), `${route} is not in openapi.yaml`);
  }
});

test('the submit fields are exactly the documented RenderRequest properties', () => {
  assert.deepEqual(keysAt(block(/^ {4}RenderRequest:$/), 8).sort(), [...RENDER_OPTIONS].sort());
});

test('the render record has exactly the documented required fields', () => {
  const required = block(/^ {4}Render:$/)
    .join(' ')
    .match(/required: \[([^\]]*)\]/)![1]!
    .split(',')
    .map((field) => field.trim());
  const record = renderRecord(
    {
      seq: 1,
      id: 'rnd_x',
      accountId: 'acct_x',
      credentialId: 'key_x',
      status: 'queued',
      warnings: [],
      projectKey: 'assets/x',
      stage: 'queued',
      framesDone: 0,
      framesTotal: null,
      attempts: 0,
      createdAt: 0,
      startedAt: null,
      finishedAt: null,
      failure: null,
      videoKey: null,
      thumbnailKey: null,
      output: null,
      credits: null,
      deletedAt: null,
      filesExpiredAt: null,
      request: {
        asset_id: 'ast_x',
        url: null,
        page_url: null,
        composition: 'index.html',
        fps: 30,
        quality: 'standard',
        format: 'mp4',
        resolution: '1080p',
        aspect_ratio: '16:9',
        variables: {},
        strict_variables: false,
        allow_missing_files: false,
        callback_url: null,
        callback_id: null,
        time: null,
        thumbnail_time: null,
        range: { start: 1, end: 2 },
        loop: null,
        metadata: { order: 'A-1' },
      },
    },
    { video_url: null, thumbnail_url: null, expires_at: null },
  );
  assert.deepEqual(Object.keys(record).sort(), required.sort());
});

// src/wire is the one source of the vocabulary the service and the client share: its tables against the document.
test('statuses, stages and webhook event types are the documented enums', () => {
  const enumOf = (heading: RegExp) =>
    block(heading)
      .join(' ')
      .match(/enum: \[([^\]]*)\]/)![1]!
      .split(',')
      .map((value) => value.trim().replace(/^'|'$/g, ''));
  assert.deepEqual(enumOf(/^ {4}RenderStatus:$/), Object.values(RenderStatus));
  assert.deepEqual(enumOf(/^ {4}RenderStage:$/), [...RENDER_STAGES]);
  assert.match(
    yaml,
    new RegExp(`type: \\{ enum: \\[${Object.values(WebhookEventType).join(', ').replaceAll('.', '\\.')}\\] \\}`),
  );
});

test('the option lists and bounds of the submit body are the documented ones', () => {
  const request = block(/^ {4}RenderRequest:$/).join('\n');
  const enumOf = (field: string) =>
    new RegExp(`^ {8}${field}:\\s*(?:\\{ )?enum: \\[([^\\]]*)\\]`, 'm')
      .exec(request)![1]!
      .split(',')
      .map((value) => value.trim().replace(/^'|'$/g, ''));
  assert.deepEqual(enumOf('quality'), [...RENDER_QUALITIES]);
  assert.deepEqual(enumOf('format'), [...RENDER_FORMATS]);
  assert.deepEqual(enumOf('resolution'), [...RENDER_RESOLUTIONS]);
  assert.match(request, new RegExp(`^ {10}enum: \\['${ASPECT_RATIOS.join("', '")}'\\]`, 'm'));
  assert.match(
    request,
    new RegExp(
      `fps: \\{ type: integer, minimum: ${MIN_FPS}, maximum: ${MAX_FPS}, default: ${RenderDefaults.fps}, description: 'A gif: at most ${GIF_FPS.max} \\(400 parameter_invalid\\), default ${GIF_FPS.default}\\.' \\}`,
    ),
  );
  for (const field of ['quality', 'format', 'resolution'] as const) {
    assert.match(
      request,
      new RegExp(`${field}:\\s*(?:\\{ )?enum: \\[[^\\]]*\\],?\\s*default: ${RenderDefaults[field]}\\b`),
    );
  }
  assert.match(request, new RegExp(`loop: \\{ type: boolean, default: ${RenderDefaults.loop},`));
  assert.match(
    request,
    new RegExp(`at most ${METADATA_LIMITS.bytes} bytes as JSON[^.]*${METADATA_LIMITS.depth} levels deep`, 'i'),
  );
  assert.match(request, new RegExp(`default: ${RenderDefaults.composition}\\b`));
  assert.match(
    block(/^ {2}\/v3\/renders:$/).join('\n'),
    new RegExp(`minimum: 1, maximum: ${MAX_PAGE_SIZE}, default: ${DEFAULT_PAGE_SIZE} \\}`),
  );
});

test('a render too long, or naming missing files, is refused at submit with the code the render fails with', () => {
  assert.equal(ErrorCode.compositionTooLong, RenderErrorCode.durationTooLong);
  assert.equal(ErrorCode.projectFileMissing, CompileIssueCode.fileMissing);
});

test('headers, id prefixes, secret prefixes, failure codes and the idempotency key pattern are documented', () => {
  for (const header of Object.values(Header))
    assert.ok(yaml.toLowerCase().includes(header.toLowerCase()), `header ${header}`);
  for (const prefix of [...Object.values(IdPrefix), API_KEY_PREFIX, WEBHOOK_SECRET_PREFIX])
    assert.ok(yaml.includes(`\`${prefix}`), `prefix ${prefix}`);
  const failure = block(/^ {8}failure:$/).join(' ');
  for (const code of Object.values(FailureCode)) assert.ok(failure.includes(`\`${code}\``), `failure code ${code}`);
  assert.ok(yaml.includes(`pattern: '${IDEMPOTENCY_KEY_PATTERN.source}'`));
});

/** The keys of a zod/mini object schema, optional ones left out when `requiredOnly`. */
const keysOf = (schema: { def: { shape: Record<string, { _zod: { optin?: string } }> } }, requiredOnly = true) =>
  Object.entries(schema.def.shape)
    .filter(([, field]) => !requiredOnly || field._zod.optin !== 'optional')
    .map(([key]) => key)
    .sort();
const requiredOf = (heading: RegExp) =>
  block(heading)
    .join(' ')
    .match(/required: \[([^\]]*)\]/)![1]!
    .split(',')
    .map((field) => field.trim())
    .sort();

test('the response schemas of the wire require exactly the documented fields', () => {
  assert.deepEqual(keysOf(renderSchema), requiredOf(/^ {4}Render:$/));
  assert.deepEqual(keysOf(dryRunSchema), requiredOf(/^ {4}DryRun:$/));
  assert.deepEqual(keysOf(assetSchema), requiredOf(/^ {4}Asset:$/));
  assert.deepEqual(keysOf(accountSchema), requiredOf(/^ {4}Account:$/));
  assert.deepEqual(keysOf(renderListSchema), requiredOf(/^ {4}RenderList:$/));
  assert.deepEqual(keysOf(issueSchema), requiredOf(/^ {4}Issue:$/));
  assert.deepEqual(keysOf(accountSchema, false), [...requiredOf(/^ {4}Account:$/), 'webhook_secret'].sort());
});
