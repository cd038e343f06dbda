import { existsSync } from 'node:fs';
import type { CaptureMode } from './types.js';

/** Where the two capture paths find their browser (Debian's packages); overridable for other installs. */
export const BrowserExecutable = {
  /** `chromium-headless-shell`: has `HeadlessExperimental.beginFrame`. Spawned directly, never via a wrapper. */
  headlessShell: () => process.env.FX_CHROMIUM_HEADLESS_SHELL ?? '/usr/lib/chromium/chromium-headless-shell',
  /** The full Chromium binary (`/usr/bin/chromium` is a shell wrapper that does not exec). */
  chromium: () => process.env.FX_CHROMIUM ?? '/usr/lib/chromium/chromium',
} as const;

/** The flags every render browser gets (the machine-specific ones match scripts/chromium.mjs). */
export const COMMON_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  // Media must load and seek without a gesture; the render never plays sound itself (FFmpeg mixes it).
  '--autoplay-policy=no-user-gesture-required',
  '--mute-audio',
  '--hide-scrollbars',
] as const;

/** Frame-by-frame control: nothing paints unless the renderer asks for a frame. */
export const BEGIN_FRAME_FLAGS = [
  '--deterministic-mode',
  '--enable-begin-frame-control',
  '--run-all-compositor-stages-before-draw',
  '--disable-threaded-animation',
] as const;

/**
 * Sends WebSockets, which the request guard never sees, through a proxy that refuses every tunnel, while http(s)
 * goes direct (the guard holds those). `<-loopback>` keeps loopback from going direct on its own; WebRTC may use
 * no UDP outside the (refusing) proxy. `closedProxy` must answer no CONNECT: the project server does not.
 */
export function websocketBlockFlags(closedProxy: string): string[] {
  return [`--proxy-server=${closedProxy}`, '--proxy-bypass-list=<-loopback>;http://*;https://*', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];
}

/** The capture path `auto` stands for on this machine. */
export function resolveCaptureMode(mode: CaptureMode): Exclude<CaptureMode, 'auto'> {
  if (mode !== 'auto') return mode;
  return existsSync(BrowserExecutable.headlessShell()) ? 'begin-frame' : 'screenshot';
}
