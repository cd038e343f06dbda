#!/usr/bin/env node
// Makes the media of the demo's media composition with FFmpeg, so the repository holds no third-party media and
// each file stays small: a still (a Mandelbrot frame, JPEG), a 4 s clip (moving gradients, VP9 WebM, no audio) and
// a 4 s chord (MP3, mono). The outputs are committed (≈ 60 KB together): the demo, the browser tests and a zip of the
// folder work from a fresh clone without FFmpeg; run this again after changing what it makes.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const out = fileURLToPath(new URL('../demo/compositions/media/', import.meta.url));
const ffmpeg = (...args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);

/** A1 major (A, C#, E) with fades, so a loop of it does not click. */
const CHORD_HZ = [220, 277.18, 329.63];

ffmpeg(
  '-f',
  'lavfi',
  '-i',
  'mandelbrot=s=480x480:start_scale=0.9:end_pts=1:inner=convergence:outer=normalized_iteration_count,format=yuvj420p',
  '-frames:v',
  '1',
  '-q:v',
  '5',
  `${out}photo.jpg`,
);
ffmpeg(
  '-f',
  'lavfi',
  '-i',
  'gradients=s=480x270:c0=0x7c3aed:c1=0x22d3ee:c2=0xf472b6:n=3:speed=0.03:d=4:r=24:seed=7,format=yuv420p',
  '-c:v',
  'libvpx-vp9',
  '-b:v',
  '0',
  '-crf',
  '45',
  '-row-mt',
  '1',
  '-an',
  `${out}clip.webm`,
);
ffmpeg(
  ...CHORD_HZ.flatMap((hz) => ['-f', 'lavfi', '-i', `sine=f=${hz}:d=4:r=44100`]),
  '-filter_complex',
  `amix=inputs=${CHORD_HZ.length},volume=3,afade=t=in:d=0.3,afade=t=out:st=3.4:d=0.6`,
  '-ac',
  '1',
  '-c:a',
  'libmp3lame',
  '-b:a',
  '48k',
  `${out}chord.mp3`,
);
console.log(`demo media written to ${out}`);
