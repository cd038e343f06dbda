import type { NextConfig } from 'next';

// The work folder sits inside the fx repository, whose own lockfile Next would otherwise take for the workspace root.
const nextConfig: NextConfig = { turbopack: { root: import.meta.dirname }, outputFileTracingRoot: import.meta.dirname };

export default nextConfig;
