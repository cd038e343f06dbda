#!/usr/bin/env node
// `fx-service`: the reference /v3 render service (src/service/main.ts; environment variables there), run from source.
import { register } from 'tsx/esm/api';

register();
await import('../../../src/service/main.ts');
