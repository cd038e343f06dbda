// openapi.yaml is the contract; these checks keep the service's public names and the document in step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ErrorCode, Route, statusOf } from '../../src/service/constants.js';
import { renderRecord } from '../../src/service/renders/render-record.js';
import { RENDER_OPTIONS } from '../../src/service/renders/render-request.js';

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

const listItems = (lines: string[]) => lines.map((line) => /^\s+- (\S+)$/.exec(line)?.[1]).filter((item): item is string => item !== undefined);
const keysAt = (lines: string[], indent: number) => lines.map((line) => new RegExp(`^ {${indent}}([a-z_]+):`).exec(line)?.[1]).filter((key): key is string => key !== undefined);

const errorCodeBlock = block(/^ {4}ErrorCode:$/);

test('every error code of the service is listed in openapi.yaml, and nothing else', () => {
  const documented = listItems(errorCodeBlock.slice(errorCodeBlock.findIndex((line) => /^\s+enum:$/.test(line))));
  assert.deepEqual([...documented].sort(), Object.values(ErrorCode).sort());
});

test('the status of every error code is the one openapi.yaml gives it', () => {
  // The description lists "<status> `code` · `code` …" groups; every code must appear under its own status.
  const description = errorCodeBlock.slice(0, errorCodeBlock.findIndex((line) => /^\s+type: string$/.test(line))).join(' ');
  const groups = description.split(/(?=\b\d{3} `)/).slice(1);
  const documented = groups.flatMap((group) => [...group.matchAll(/`([a-z_]+)`/g)].map(([, code]) => [code!, Number(group.slice(0, 3))] as const));
  assert.deepEqual(documented.map(([code]) => code).sort(), Object.values(ErrorCode).sort());
  for (const [code, status] of documented) assert.equal(statusOf(code as ErrorCode), status, code);
});

test('every route is a documented path', () => {
  const paths = block(/^paths:$/).map((line) => /^ {2}(\/\S+):$/.exec(line)?.[1]).filter((path): path is string => path !== undefined);
  assert.equal(paths.length, 5);
  for (const route of [Route.assets, Route.renders, Route.render.replace(':render_id', '{render_id}'), Route.account, `${Route.files}/renders/{render_id}/{file}`]) {
    assert.ok(paths.includes(route), `${route} is not in openapi.yaml`);
  }
});

test('the submit fields are exactly the documented RenderRequest properties', () => {
  assert.deepEqual(keysAt(block(/^ {4}RenderRequest:$/), 8).sort(), [...RENDER_OPTIONS].sort());
});

test('the render record has exactly the documented required fields', () => {
  const required = block(/^ {4}Render:$/).join(' ').match(/required: \[([^\]]*)\]/)![1]!.split(',').map((field) => field.trim());
  const record = renderRecord(
    {
      seq: 1, id: 'rnd_x', accountId: 'acct_x', credentialId: 'key_x', status: 'queued', warnings: [], projectKey: 'assets/x', stage: 'queued',
      framesDone: 0, framesTotal: null, attempts: 0, createdAt: 0, startedAt: null, finishedAt: null, failure: null, videoKey: null,
      thumbnailKey: null, output: null, credits: null, deletedAt: null,
      request: { asset_id: 'ast_x', url: null, page_url: null, composition: 'index.html', fps: 30, quality: 'standard', format: 'mp4', resolution: '1080p', aspect_ratio: '16:9', variables: {}, strict_variables: false, callback_url: null, callback_id: null },
    },
    { video_url: null, thumbnail_url: null, expires_at: null },
  );
  assert.deepEqual(Object.keys(record).sort(), required.sort());
});
