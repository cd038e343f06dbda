import { existsSync } from 'node:fs';
import { executable } from './executables.js';
import type { CaptureMode } from './types.js';

/** Where the two capture paths find their browser (Debian's packages); overridable for other installs. */
export const BrowserExecutable = {
  /** `chromium-headless-shell`: has `HeadlessExperimental.beginFrame`. Spawned directly, never via a wrapper. */
  headlessShell: () => executable('headlessShell'),
  /** The full Chromium binary (`/usr/bin/chromium` is a shell wrapper that does not exec). */
  chromium: () => executable('chromium'),
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

/**
 * The headless shell's flags (begin-frame capture). Frame-by-frame control: nothing paints unless the renderer asks
 * for a frame. Slight hinting: the shell hints web fonts fully by default, while the preview's Chromium takes
 * fontconfig's default (hintslight), so a web-font headline rendered wider by pixels than it previewed.
 */
export const BEGIN_FRAME_FLAGS = [
  '--deterministic-mode',
  '--enable-begin-frame-control',
  '--run-all-compositor-stages-before-draw',
  '--disable-threaded-animation',
  '--font-render-hinting=slight',
] as const;

/**
 * The generic font families of desktop Chromium on Linux (its locale settings), which the preview's browser
 * resolves through fontconfig. A headless shell page opened over CDP keeps content's own defaults instead (fixed =
 * "Courier New", i.e. Liberation Mono where DejaVu Sans Mono previews), so every `monospace` line rendered
 * narrower and shorter than it previewed.
 */
export const GENERIC_FONT_FAMILIES = {
  standard: 'Times New Roman',
  fixed: 'Monospace',
  serif: 'Times New Roman',
  sansSerif: 'Arial',
  cursive: 'Comic Sans MS',
  fantasy: 'Impact',
} as const;

/**
 * Sends the browser's http(s) through the render's egress proxy (`egress-proxy.ts`), which connects only to the
 * addresses the network policy checked: Chromium resolves no name it proxies, so a host cannot answer the check
 * publicly and the connection privately. WebSockets (ws/wss take the `socks=` fallback) and every other scheme go
 * to the project server, which answers no CONNECT, so they fail. Only the project server itself is reached
 * directly (`<-loopback>` keeps the rest of loopback from going direct on its own); WebRTC may send no UDP
 * outside the proxies.
 */
export function egressProxyFlags(egressProxy: string, projectOrigin: string): string[] {
  const [egress, project] = [new URL(egressProxy).host, new URL(projectOrigin).host];
  return [
    `--proxy-server=http=${egress};https=${egress};socks=http://${project}`,
    `--proxy-bypass-list=<-loopback>;http://${project}`,
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

/** The capture path `auto` stands for on this machine. */
export function resolveCaptureMode(mode: CaptureMode): Exclude<CaptureMode, 'auto'> {
  if (mode !== 'auto') return mode;
  return existsSync(BrowserExecutable.headlessShell()) ? 'begin-frame' : 'screenshot';
}
