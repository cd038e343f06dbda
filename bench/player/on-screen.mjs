// Whether WebKit's `await seek(t)` answers once the picture is on the screen, not only painted (painted.ts waits
// for one frame on time after the paint in WebKit): WebKitGTK's MiniBrowser under its private Xvfb, whose screen
// FFmpeg's x11grab reads 500 times a second, stamping each grab with the wall clock. The composition's colour says
// which time is shown (on-screen/shade.html). Measured, not asserted in a test: on a busy machine x11grab misses its
// turns and the pictures come late, which made a test of it fail in CI runs that passed here.
import { spawn } from 'node:child_process';
import { remote } from 'webdriverio';
import { webKitCapabilities } from '../../scripts/webkit.mjs';

const HOST_PAGE = '/bench/player/on-screen/host.html';
/** The compositions and seeks per composition: a light one, and 600 shadowed text lines repainted by each seek. */
const COMPOSITIONS = [
  ['shade.html', 20],
  ['shadows.html', 10],
];
/** The composition's red channel per second: 0 at 0 s, 250 at 10 s. */
const RED_PER_SECOND = 25;
/** How far a grabbed red may be from the one expected (the screen's colour conversion). */
const RED_TOLERANCE = 3;
const GRABS_PER_SECOND = 500;
/** More than painted.ts's scrub gap: each seek is one on its own, as before a screenshot. */
const SEEK_GAP_MS = 400;
const WINDOW = { width: 800, height: 600 };
/** The whole X screen of scripts/webkit.mjs. */
const SCREEN_WIDTH = 1280;

/** Seek times in 0.4–9.6 s, none two in a row within a second of each other (their colours apart). */
const seekTimes = (count) => Array.from({ length: count }, (_, index) => 0.4 + ((index * 3.7) % 9.2));

async function load(session, context, composition) {
  await session.url(await context.url(HOST_PAGE));
  const errors = await session.executeAsync(
    (src, done) => {
      const player = document.querySelector('fx-composition');
      player.addEventListener('ready', () => done([]), { once: true });
      player.addEventListener('error', (event) => done([JSON.stringify(event.detail)]), { once: true });
      player.setAttribute('src', src);
    },
    await context.url(`/bench/player/on-screen/${composition}`),
  );
  if (errors.length > 0) throw new Error(`WebKit failed to load ${composition}: ${errors[0]}`);
}

/** One grab of the whole screen as RGB bytes. */
function grabWholeScreen(display) {
  return new Promise((resolve, reject) => {
    const args = ['-hide_banner', '-loglevel', 'error', '-f', 'x11grab', '-i', display, '-frames:v', '1'];
    const grab = spawn('ffmpeg', [...args, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
    const chunks = [];
    grab.stdout.on('data', (chunk) => chunks.push(chunk));
    grab.on('error', reject).on('close', () => resolve(Buffer.concat(chunks)));
  });
}

/** Where the composition's centre is on the screen: after a seek to 5 s, the middle of the pixels of its red. */
async function locateShade(session, display) {
  await session.execute(() => document.querySelector('fx-composition').seek(5));
  const want = 5 * RED_PER_SECOND;
  for (let attempt = 0; attempt < 50; attempt++) {
    const screen = await grabWholeScreen(display);
    const height = screen.length / 3 / SCREEN_WIDTH;
    let [x, y, count] = [0, 0, 0];
    for (let row = 0; row < height; row += 4)
      for (let column = 0; column < SCREEN_WIDTH; column += 4) {
        const at = (row * SCREEN_WIDTH + column) * 3;
        if (Math.abs(screen[at] - want) <= RED_TOLERANCE && screen[at + 1] < 8 && screen[at + 2] < 8) {
          [x, y, count] = [x + column, y + row, count + 1];
        }
      }
    if (count > 100) return { x: Math.round(x / count), y: Math.round(y / count) };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the composition at 5 s never showed on the screen');
}

/**
 * x11grab of a 2×2 square at `centre`, 500 times a second; `grabs` fills with each grab's wall-clock time
 * (-copyts keeps x11grab's stamps) and mean red, from showinfo's lines (gbrp's planes are green, blue, red).
 */
function grabCentre(display, centre, grabs) {
  const args = ['-hide_banner', '-f', 'x11grab', '-framerate', String(GRABS_PER_SECOND), '-draw_mouse', '0'];
  args.push('-video_size', '2x2', '-grab_x', String(centre.x), '-grab_y', String(centre.y), '-i', display);
  const ffmpeg = spawn('ffmpeg', [...args, '-copyts', '-vf', 'format=gbrp,showinfo', '-f', 'null', '-'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let pending = '';
  ffmpeg.stderr.setEncoding('utf8').on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    for (const line of lines) {
      const found = /\bpts:(\d+)\b.*\bmean:\[\d+ \d+ (\d+)\]/.exec(line);
      if (found) grabs.push({ at: Number(found[1]) / 1000, red: Number(found[2]) });
    }
  });
  return ffmpeg;
}

/**
 * Per seek: when it was answered, the first grab showing its picture, and the grab before that one. The picture
 * came between those two grabs; x11grab stamps a grab before it reads the screen and on a busy machine misses its
 * turns, so the first grab with the picture can be stamped well after the picture came, while the last grab
 * without it, stamped after the answer, proves the picture came late.
 */
async function seeksOnScreen(session, display, times) {
  const grabs = [];
  const ffmpeg = grabCentre(display, await locateShade(session, display), grabs);
  try {
    while (grabs.length < GRABS_PER_SECOND / 10) await new Promise((resolve) => setTimeout(resolve, 50));
    const seeks = await session.executeAsync(
      (times, gapMs, done) => {
        const player = document.querySelector('fx-composition');
        void (async () => {
          const seeks = [];
          for (const time of times) {
            await new Promise((resolve) => setTimeout(resolve, gapMs));
            const asked = Date.now();
            await player.seek(time);
            seeks.push({ time, asked, answered: Date.now() });
          }
          done(seeks);
        })();
      },
      times,
      SEEK_GAP_MS,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    return seeks.map(({ time, asked, answered }) => {
      const red = Math.round(time * RED_PER_SECOND);
      const shownAt = grabs.findIndex((grab) => grab.at >= asked && Math.abs(grab.red - red) <= RED_TOLERANCE);
      return {
        time,
        answered,
        shown: grabs[shownAt]?.at,
        lastWithout: shownAt > 0 ? grabs[shownAt - 1].at : undefined,
      };
    });
  } finally {
    ffmpeg.kill();
  }
}

/**
 * Runs the seeks of each composition in a new session on `driver` (scripts/webkit.mjs). Resolves with, per seek,
 * `marginMs`: answer − last grab without its picture (≥ 0: on the screen by the answer; the page's clock counts
 * whole milliseconds, so −1 is within its resolution), or `never` when no grab showed it.
 */
export async function measureSeeksOnScreen(context, driver) {
  const session = await remote({
    hostname: '127.0.0.1',
    port: driver.port,
    capabilities: webKitCapabilities(),
    logLevel: 'error',
  });
  const seeks = [];
  try {
    await session.setTimeout({ script: 120_000 });
    await session.setWindowRect(0, 0, WINDOW.width, WINDOW.height);
    for (const [composition, count] of COMPOSITIONS) {
      await load(session, context, composition);
      for (const seek of await seeksOnScreen(session, driver.display, seekTimes(count))) {
        const marginMs = seek.lastWithout === undefined ? undefined : seek.answered - seek.lastWithout;
        seeks.push({ composition, time: Number(seek.time.toFixed(2)), marginMs, never: seek.shown === undefined });
      }
    }
  } finally {
    await session.deleteSession().catch(() => undefined);
  }
  return seeks;
}
