// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

// Every page rendered on request by the standalone Node server.
export default defineConfig({ output: 'server', adapter: node({ mode: 'standalone' }), integrations: [react()] });
