/**
 * The renderer's programs and the environment variables that choose them, said once (the service's settings table
 * lists them; docs/service.md). Read at each use, so a process's environment may change them.
 */
export const ExecutableEnv = {
  /** The full Chromium binary (`/usr/bin/chromium` is a shell wrapper that does not exec). */
  chromium: 'FX_CHROMIUM',
  /** `chromium-headless-shell`: has `HeadlessExperimental.beginFrame`. Spawned directly, never via a wrapper. */
  headlessShell: 'FX_CHROMIUM_HEADLESS_SHELL',
  ffmpeg: 'FX_FFMPEG',
  ffprobe: 'FX_FFPROBE',
} as const;

/** Where each program is when its variable is unset: Debian's packages, and FFmpeg's on the PATH. */
export const DEFAULT_EXECUTABLES: Readonly<Record<keyof typeof ExecutableEnv, string>> = {
  chromium: '/usr/lib/chromium/chromium',
  headlessShell: '/usr/lib/chromium/chromium-headless-shell',
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffprobe',
};

/** The program to run: its variable if set (and not empty), else its default. */
export const executable = (name: keyof typeof ExecutableEnv): string =>
  process.env[ExecutableEnv[name]] || DEFAULT_EXECUTABLES[name];
