#!/usr/bin/env node
// `fx-service`: the reference /v3 render service (src/service/main.ts, bundled into dist/; environment variables there).
import '../dist/fx-service.js';
