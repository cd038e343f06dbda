#!/usr/bin/env node
// `fx`: the command-line tool (src/cli/fx.ts, bundled into dist/ by scripts/build-server.mjs; `fx --help`).
import '../dist/fx.js';
