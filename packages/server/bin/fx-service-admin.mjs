#!/usr/bin/env node
// `fx-service-admin create-key --account me`: the service's admin command (src/service/admin.ts), run from source.
import { register } from 'tsx/esm/api';

register();
await import('../../../src/service/admin.ts');
