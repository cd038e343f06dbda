/** The settings table as people read it: docs/service.md's table, `fx service --help`, `fx service check-config`. */
import type { ServiceRole } from '../config.js';
import type { ReadSettings } from './read.js';
import { Secret, SERVICE_SETTINGS, type ServiceSetting, type SettingName } from './table.js';

const entries = Object.entries(SERVICE_SETTINGS) as [SettingName, ServiceSetting<unknown>][];

const shownDefault = (setting: ServiceSetting<unknown>) =>
  setting.shownDefault ?? (Array.isArray(setting.default) ? setting.default.join(',') : String(setting.default));

/**
 * The Markdown table of every setting, the service's then `others` (the `fx` command's, read by no service
 * process); docs/service.md holds it between its settings markers.
 */
export function settingsMarkdown(others: Readonly<Record<string, ServiceSetting<unknown>>> = {}): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const every = [...Object.values(SERVICE_SETTINGS), ...Object.values(others)] as ServiceSetting<unknown>[];
  const rows = every.map((setting) =>
    [
      `\`${setting.env}\``,
      setting.flag ? `\`--${setting.flag}\`` : '',
      cell(setting.type),
      cell(shownDefault(setting)),
      setting.roles.length > 0 ? setting.roles.join(', ') : '`fx`',
      setting.secret ? 'yes' : '',
      cell(setting.summary),
    ].join(' | '),
  );
  return [
    '| Variable | Flag | Type | Default | Read by | Secret | What |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** `fx service --help`'s lines for the settings `role` reads: variable, type, default, what. */
export function settingsHelp(role: ServiceRole): string[] {
  const read = entries.filter(([, setting]) => setting.roles.includes(role));
  const width = Math.max(...read.map(([, setting]) => setting.env.length));
  return read.map(
    ([, setting]) =>
      `${setting.env.padEnd(width)}  ${setting.type} (default ${shownDefault(setting)}) — ${setting.summary}`,
  );
}

/** A value as it may be printed: secrets hidden, a URL's password replaced. */
function printable(setting: ServiceSetting<unknown>, value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return `(${shownDefault(setting)})`;
  if (setting.secret === Secret.whole) return '(set, hidden)';
  const text = Array.isArray(value) ? value.join(',') : String(value);
  if (setting.secret === Secret.password) {
    const url = URL.parse(text);
    if (url?.password) url.password = '***';
    return url?.toString() ?? '(set, hidden)';
  }
  return text;
}

/** One setting as `fx service check-config` shows it. */
export interface EffectiveSetting {
  readonly env: string;
  /** Printable: secrets hidden, a URL's password replaced, `(…)` for a default that is no value. */
  readonly value: string;
  readonly source: 'environment' | 'default';
}

/** Each setting `role` reads, its effective value (printable) and where it came from. */
export function effectiveSettings(settings: ReadSettings, role: ServiceRole): EffectiveSetting[] {
  return entries
    .filter(([, setting]) => setting.roles.includes(role))
    .map(([name, setting]) => ({
      env: setting.env,
      value: printable(setting, settings.values[name]),
      source: settings.sources[name],
    }));
}

/** `fx service check-config`'s lines: variable, value, `(default)` where nothing set it. */
export function effectiveSettingLines(settings: ReadSettings, role: ServiceRole): string[] {
  const rows = effectiveSettings(settings, role);
  const width = Math.max(...rows.map((row) => row.env.length));
  return rows.map((row) => `${row.env.padEnd(width)}  ${row.value}${row.source === 'default' ? '  (default)' : ''}`);
}
