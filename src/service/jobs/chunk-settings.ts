import { DEFAULT_MIN_CHUNK_FRAMES } from '../../render/chunks/plan.js';
import { FxError } from '../../runtime/errors.js';

/** When and how a render is split into chunks rendered by different jobs (see `planChunks`). */
export interface ChunkSettings {
  /** Workers a long render is split for; 1 (the default) renders every render as one job. */
  readonly workers: number;
  /** Fewest frames of a chunk: a render with fewer than twice this many frames stays one job. */
  readonly minChunkFrames: number;
  /** Chunks per worker: more, smaller chunks balance uneven workers and make a retried chunk cheaper. */
  readonly chunksPerWorker: number;
}

export const DEFAULT_CHUNKS: ChunkSettings = {
  workers: 1,
  minChunkFrames: DEFAULT_MIN_CHUNK_FRAMES,
  chunksPerWorker: 1,
};

/** The environment variables of the chunk settings, said once. */
export const CHUNK_ENV = {
  workers: 'FX_SERVICE_CHUNK_WORKERS',
  minChunkFrames: 'FX_SERVICE_CHUNK_MIN_FRAMES',
  chunksPerWorker: 'FX_SERVICE_CHUNKS_PER_WORKER',
} as const;

export const ChunkSettingsErrorCode = { invalid: 'chunk_settings_invalid' } as const;

/** Bounds of each setting (`planChunks` refuses more). */
const BOUNDS: Record<keyof ChunkSettings, readonly [number, number]> = {
  workers: [1, 1024],
  minChunkFrames: [1, 86_400 * 240],
  chunksPerWorker: [1, 64],
};

/** Fills in defaults and checks every setting; throws `chunk_settings_invalid` naming the one at fault. */
export function resolveChunkSettings(settings: Partial<ChunkSettings> = {}): ChunkSettings {
  const resolved = { ...DEFAULT_CHUNKS, ...settings };
  for (const [name, [min, max]] of Object.entries(BOUNDS) as [keyof ChunkSettings, readonly [number, number]][]) {
    const value = resolved[name];
    if (!Number.isInteger(value) || value < min || value > max)
      throw new FxError(
        ChunkSettingsErrorCode.invalid,
        `"chunks.${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(value) ?? String(value)}`,
      );
  }
  return resolved;
}

/**
 * The chunk settings from `FX_SERVICE_CHUNK*` variables (unset or empty: the default). Throws
 * `chunk_settings_invalid` naming the variable: a mistyped setting must stop the service at start.
 */
export function chunkSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): ChunkSettings {
  const settings: Partial<Record<keyof ChunkSettings, number>> = {};
  for (const [name, variable] of Object.entries(CHUNK_ENV) as [keyof ChunkSettings, string][]) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    const [min, max] = BOUNDS[name];
    if (!/^\d{1,8}$/.test(text) || Number(text) < min || Number(text) > max)
      throw new FxError(
        ChunkSettingsErrorCode.invalid,
        `"${variable}" must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`,
      );
    settings[name] = Number(text);
  }
  return resolveChunkSettings(settings);
}
