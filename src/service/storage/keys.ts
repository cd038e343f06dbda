/** Storage keys, said once. */
export const StorageKey = {
  asset: (assetId: string) => `assets/${assetId}`,
  render: (renderId: string) => `renders/${renderId}`,
  urlProject: (renderId: string) => `renders/${renderId}/project`,
  video: (renderId: string, extension: string) => `renders/${renderId}/video.${extension}`,
  thumbnail: (renderId: string, extension: string) => `renders/${renderId}/thumbnail.${extension}`,
} as const;
