// The in-page half of the zip figures (browser code): builds a 100 MB project in memory — media as Blobs, as a
// folder picker hands them over, text as strings — and times zipProject on it, watching for long tasks. The upload
// figures zip the same project once (upload-page.mjs).

export const MB = 1_000_000;
const MEDIA = [
  ...Array.from({ length: 8 }, (_, index) => [`media/clip-${index}.mp4`, 8 * MB]),
  ...Array.from({ length: 6 }, (_, index) => [`media/music-${index}.m4a`, 2.5 * MB]),
  ...Array.from({ length: 30 }, (_, index) => [`images/photo-${index}.jpg`, 0.4 * MB]),
  ...Array.from({ length: 20 }, (_, index) => [`images/icon-${index}.png`, 0.15 * MB]),
  ['fonts/title.woff2', 0.1 * MB],
];
const TEXT_BYTES = 5 * MB;

/** Bytes that do not compress, like media: random, in the 64 KiB pieces `getRandomValues` takes. */
function randomBlob(bytes) {
  const parts = [];
  for (let offset = 0; offset < bytes; offset += 65536)
    parts.push(crypto.getRandomValues(new Uint8Array(Math.min(65536, bytes - offset))));
  return new Blob(parts);
}

/** CSS-like text that deflates about as well as real stylesheets and scripts. */
function text(bytes, seed) {
  let out = '';
  for (let index = 0; out.length < bytes; index++)
    out += `.c${seed}-${index} { color: #${((index * 2654435761) >>> 8).toString(16).padStart(6, '0')}; margin: ${index % 17}px; }\n`;
  return out;
}

export function buildProject() {
  const files = [
    { path: 'index.html', data: '<!doctype html><div data-composition-id="main" data-duration="10"></div>' },
  ];
  for (const [path, bytes] of MEDIA) files.push({ path, data: randomBlob(Math.round(bytes)) });
  const textFiles = 200;
  for (let index = 0; index < textFiles; index++) {
    const path = index < 4 ? `styles/big-${index}.css` : `parts/part-${index}.html`;
    // Four big stylesheets hold most of the text; the rest are small files.
    const bytes = index < 4 ? (TEXT_BYTES * 0.8) / 4 : (TEXT_BYTES * 0.2) / (textFiles - 4);
    files.push({ path, data: text(bytes, index) });
  }
  return files;
}

export async function measureZip({ zipUrl, warmup, samples }) {
  const { zipProject } = await import(zipUrl);
  const files = buildProject();
  const totalBytes = files.reduce(
    (sum, { data }) => sum + (typeof data === 'string' ? new TextEncoder().encode(data).byteLength : data.size),
    0,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));

  const times = [];
  const throughput = [];
  const longestTasks = [];
  let zipBytes = 0;
  let stored = 0;
  for (let run = 0; run < warmup + samples; run++) {
    const durations = [];
    const observer = new PerformanceObserver((list) =>
      durations.push(...list.getEntries().map((entry) => entry.duration)),
    );
    observer.observe({ type: 'longtask' });
    const start = performance.now();
    const { zip, entries } = await zipProject(files, { ignore: false });
    const elapsed = performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 100));
    durations.push(...observer.takeRecords().map((entry) => entry.duration));
    observer.disconnect();
    zipBytes = zip.size;
    stored = entries.filter((entry) => entry.stored).length;
    if (run < warmup) continue;
    times.push(elapsed);
    throughput.push(totalBytes / MB / (elapsed / 1000));
    longestTasks.push(Math.max(0, ...durations));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    times,
    throughput,
    longestTasks,
    details: {
      files: files.length,
      projectBytes: totalBytes,
      zipBytes,
      storedEntries: stored,
      cores: navigator.hardwareConcurrency,
    },
  };
}
