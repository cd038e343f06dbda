/** What in-browser export writes: containers, their codecs, and which keep alpha. */
export const EXPORT_FORMATS = ['mp4', 'webm'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Still image types of `captureFrame`. */
export const STILL_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type StillType = (typeof STILL_TYPES)[number];

/** Media types of the exported files. */
export const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = { mp4: 'video/mp4', webm: 'video/webm' };
