// `npm run docs:settings`: writes the service's settings table into docs/service.md (test/service/settings.node.test.ts
// fails while the two differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_SETTINGS } from '../src/cli/client-settings.js';
import { settingsMarkdown } from '../src/service/settings/describe.js';
import { withSettingsSection } from '../src/service/settings/docs-section.js';

const page = join(import.meta.dirname, '..', 'docs', 'service.md');
writeFileSync(page, withSettingsSection(readFileSync(page, 'utf8'), settingsMarkdown(CLIENT_SETTINGS)));
