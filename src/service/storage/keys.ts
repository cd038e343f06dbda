/** Storage keys, said once. */
export const StorageKey = {
  asset: (assetId: string) => `assets/${assetId}`,
  render: (renderId: string) => `renders/${renderId}`,
  urlProject: (renderId: string) => `renders/${renderId}/project`,
  video: (renderId: string, extension: string) => `renders/${renderId}/video.${extension}`,
  thumbnail: (renderId: string, extension: string) => `renders/${renderId}/thumbnail.${extension}`,
  chunks: (renderId: string) => `renders/${renderId}/chunks`,
  /** A chunk attempt's file: a worker that lost its chunk to another can remove its own file without touching theirs. */
  chunk: (renderId: string, index: number, attempt: number, extension: string) =>
    `renders/${renderId}/chunks/${index}-${attempt}.${extension}`,
} as const;
