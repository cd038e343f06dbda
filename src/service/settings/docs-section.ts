/** The settings table's place in docs/service.md, between two markers: written by `npm run docs:settings`. */

export const SETTINGS_BEGIN = '<!-- settings: made by `npm run docs:settings` from src/service/settings/table.ts -->';
export const SETTINGS_END = '<!-- settings end -->';

/** `page` with `table` between the markers; throws when the markers are missing. */
export function withSettingsSection(page: string, table: string): string {
  const begin = page.indexOf(SETTINGS_BEGIN);
  const end = page.indexOf(SETTINGS_END);
  if (begin < 0 || end < begin)
    throw new Error(`docs/service.md lacks the markers ${SETTINGS_BEGIN} … ${SETTINGS_END}`);
  return `${page.slice(0, begin + SETTINGS_BEGIN.length)}\n${table}\n${page.slice(end)}`;
}
