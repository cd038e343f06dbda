#!/usr/bin/env node
// `fx-service-admin create-key --account me`: the service's admin command (src/service/admin.ts, bundled into dist/).
import '../dist/fx-service-admin.js';
