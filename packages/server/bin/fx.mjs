#!/usr/bin/env node
// `fx`: the command-line tool (src/cli/fx.ts; `fx --help`), run from source.
import { register } from 'tsx/esm/api';

register();
await import('../../../src/cli/fx.ts');
