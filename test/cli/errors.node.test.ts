/** exitCodeOf: the exit code of each kind of error, whoever raised it (client, service, renderer, the CLI). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FxApiError } from '../../src/client/errors.js';
import { cliError, CliErrorCode, exitCodeOf } from '../../src/cli/errors.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { FxError } from '../../src/runtime/errors.js';

describe('exitCodeOf', () => {
  const cases: [string, unknown, number][] = [
    ['a flag refused by the client before sending', new FxApiError('parameter_invalid', 'x'), ExitCode.usage],
    [
      'the same code answered by the service',
      new FxApiError('parameter_invalid', 'x', { status: 400 }),
      ExitCode.invalid,
    ],
    ['4k with alpha', new FxApiError('resolution_format_unsupported', 'x'), ExitCode.usage],
    ['unknown flag', cliError(CliErrorCode.flagUnknown, 'x'), ExitCode.usage],
    ['variables refused', new FxApiError('render_project_invalid', 'x', { status: 422 }), ExitCode.invalid],
    ['a batch row refused', new FxError('batch_rows_refused', 'x'), ExitCode.invalid],
    ['a zip refused', new FxError('zip_entry_symlink', 'x'), ExitCode.invalid],
    ['not signed in', cliError(CliErrorCode.notSignedIn, 'x'), ExitCode.auth],
    ['a 401 without a way to refresh', new FxApiError('auth_required', 'x', { status: 401 }), ExitCode.auth],
    ['no connection', new FxApiError('network_error', 'x'), ExitCode.unavailable],
    ['--max-wait ran out', new FxApiError('timeout', 'x'), ExitCode.unavailable],
    ['Ctrl-C in the client', new FxApiError('aborted', 'x'), ExitCode.interrupted],
    ['Ctrl-C in the renderer', new FxError('render_aborted', 'x'), ExitCode.interrupted],
    ['a failed render', new FxApiError('ffmpeg_failed', 'x'), ExitCode.failed],
    ['a server error', new FxApiError('internal_error', 'x', { status: 500 }), ExitCode.failed],
    ['not an FxError', new TypeError('x'), ExitCode.failed],
  ];
  for (const [name, error, code] of cases) test(`${name} → ${code}`, () => assert.equal(exitCodeOf(error), code));
});
