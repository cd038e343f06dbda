/**
 * `fx service check-config`: the settings a service process would start with, read and checked as it reads them
 * (src/service/settings), secrets hidden; every bad one at once, exit 3.
 */
import { ServiceRole } from '../../service/config.js';
import { ROLE_ENV } from '../../service/main-defaults.js';
import { effectiveSettingLines, effectiveSettings } from '../../service/settings/describe.js';
import { readServiceSettings } from '../../service/settings/read.js';
import { choice } from '../../service/settings/readers.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { cliError, CliErrorCode } from '../errors.js';
import { OutputEvent } from '../output.js';
import { serviceEnvironment, SERVICE_FLAGS } from './service.js';

const roles = Object.values(ServiceRole);

export const command: Command = {
  name: 'service check-config',
  summary:
    'Checks the settings a service process would start with and prints them with secrets hidden; exits 3 on a bad one.',
  flags: {
    role: {
      type: 'string',
      value: `<${roles.join('|')}>`,
      description: `the process to check (default $${ROLE_ENV} or embedded)`,
    },
    ...SERVICE_FLAGS,
  },
  notes: ['Every setting, its type, default and roles: docs/service.md ("Run it"), or `fx service --help`.'],
  run,
};

async function run(context: CommandContext): Promise<void> {
  const given = stringFlag(context, 'role') ?? context.env[ROLE_ENV] ?? ServiceRole.embedded;
  let role: ServiceRole;
  try {
    role = choice(roles)(given);
  } catch (error) {
    throw cliError(
      CliErrorCode.flagInvalid,
      `"--role" must be ${(error as Error).message}, got ${JSON.stringify(given)}`,
    );
  }
  const settings = readServiceSettings(serviceEnvironment(role, context));
  context.out.event(OutputEvent.result, { role, settings: effectiveSettings(settings, role) });
  for (const line of effectiveSettingLines(settings, role)) context.out.line(line);
  context.out.note(
    `the settings of ${role === ServiceRole.embedded ? 'an embedded' : `a "${role}"`} process are valid`,
  );
}
