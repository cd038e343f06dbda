import type { Issue } from '../../runtime/issues.js';
import { configInvalid, ConfigIssueCode } from '../config-check.js';
import { chunkSettingsFromEnv, type ChunkSettings } from '../jobs/chunk-settings.js';
import { s3SettingsFromEnv, type S3Settings } from '../storage/s3-settings.js';
import { SERVICE_SETTINGS, type ServiceSetting, type ServiceSettings, type SettingName } from './table.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** The settings of a process, with its S3 and chunk settings read as their groups. */
export interface ReadSettings {
  readonly values: ServiceSettings;
  /** Undefined when no `FX_SERVICE_S3_*` is set: files on the local disk. */
  readonly s3: S3Settings | undefined;
  readonly chunks: ChunkSettings;
  /** Where each value came from. */
  readonly sources: Readonly<Record<SettingName, 'environment' | 'default'>>;
}

const entries = Object.entries(SERVICE_SETTINGS) as [SettingName, ServiceSetting<unknown>][];
const isSet = (env: Environment, name: string) => env[name] !== undefined && env[name] !== '';

/**
 * Reads every setting of {@link SERVICE_SETTINGS} from `env` (unset or empty: the default). Throws one
 * `service_config_invalid` whose `issues` name each variable at fault (path: the variable), so a mistyped port and a
 * half-configured bucket are both reported before anything starts.
 */
export function readServiceSettings(env: Environment): ReadSettings {
  const issues: Issue<ConfigIssueCode>[] = [];
  const values: Record<string, unknown> = {};
  const sources: Record<string, 'environment' | 'default'> = {};
  for (const [name, setting] of entries) {
    sources[name] = isSet(env, setting.env) ? 'environment' : 'default';
    if (!isSet(env, setting.env)) {
      values[name] = setting.default;
      continue;
    }
    const given = env[setting.env]!;
    try {
      values[name] = setting.read(given);
    } catch (error) {
      const shown = setting.secret ? 'a value' : JSON.stringify(given.slice(0, 100));
      issues.push({
        code: ConfigIssueCode.valueInvalid,
        severity: 'error',
        path: [setting.env],
        message: `"${setting.env}" must be ${(error as Error).message}, got ${shown}`,
      });
    }
  }
  const group = <T>(read: () => T, variables: string[]): T | undefined => {
    try {
      return read();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = variables.find((variable) => message.includes(variable)) ?? variables[0]!;
      issues.push({ code: ConfigIssueCode.valueInvalid, severity: 'error', path: [at], message });
      return undefined;
    }
  };
  const variablesOf = (name: 's3' | 'chunks') => entries.filter(([, s]) => s.group === name).map(([, s]) => s.env);
  const s3 = group(() => s3SettingsFromEnv(env), variablesOf('s3'));
  const chunks = group(() => chunkSettingsFromEnv(env), variablesOf('chunks'));
  if (issues.length > 0) throw configInvalid(issues);
  return {
    values: values as ServiceSettings,
    s3,
    chunks: chunks!,
    sources: sources as ReadSettings['sources'],
  };
}
