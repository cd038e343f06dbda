/** The Firefox executable: `FX_FIREFOX` if set, else the first system install found. */
export function firefoxPath(): string;
