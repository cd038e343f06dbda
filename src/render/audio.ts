import { execFile } from 'node:child_process';
import { issue, type Issue } from '../runtime/issues.js';
import type { BrowserPage } from './page.js';
import type { ProjectServer } from './project-server.js';

/** Problems with audio sources; the render goes on without that source. */
export const AudioIssueCode = {
  sourceUnsupported: 'audio_source_unsupported',
  streamMissing: 'audio_stream_missing',
} as const;

/** An audible media element as the page resolved it, with its clip window in composition seconds. */
export interface PageAudioClip {
  readonly src: string;
  readonly start: number;
  readonly end: number;
  readonly volume: number;
  readonly tag: string;
}

/** An audio clip ready for FFmpeg: its input (file path or URL) and which protocols that input may use. */
export interface AudioInput {
  readonly input: string;
  readonly protocols: string;
  readonly start: number;
  readonly end: number;
  readonly volume: number;
}

/**
 * Lists `<audio>` (unless muted) and `<video data-has-audio>` elements of the loaded composition with their
 * resolved `src`, volume and clip window, read from the runtime (`__fx.clipWindow`) after `__fx.ready`.
 */
export function readPageAudio(page: BrowserPage): Promise<PageAudioClip[]> {
  return page.evaluate<PageAudioClip[]>(
    'reading audio clips',
    `(() => {
      const fx = window.__fx;
      if (typeof fx.clipWindow !== 'function') throw new Error('the runtime has no clipWindow hook; rebuild "fx-runtime.js"');
      const clips = [];
      for (const media of document.querySelectorAll('audio, video[data-has-audio]')) {
        if (media.localName === 'audio' && media.muted) continue;
        const span = fx.clipWindow(media);
        const src = media.currentSrc || media.src;
        if (!span || !src || span.end <= span.start) continue;
        clips.push({ src, start: span.start, end: span.end, volume: media.volume, tag: media.localName });
      }
      return clips;
    })()`,
  );
}

/** Maps page URLs to FFmpeg inputs: project files by path, http(s) and data: URLs as such; others are skipped. */
export async function audioInputs(clips: readonly PageAudioClip[], server: ProjectServer, duration: number): Promise<{ inputs: AudioInput[]; issues: Issue[] }> {
  const inputs: AudioInput[] = [];
  const issues: Issue[] = [];
  for (const clip of clips) {
    if (clip.start >= duration || clip.volume <= 0) continue;
    const local = await server.localFile(clip.src);
    const protocol = local ? 'file' : /^(https?|data):/i.exec(clip.src)?.[1]?.toLowerCase();
    if (!protocol) {
      issues.push(issue(AudioIssueCode.sourceUnsupported, [clip.tag, 'src'], `audio of <${clip.tag}> "${clip.src.slice(0, 100)}" cannot be mixed: only project files, http(s) and data: URLs can`, 'warning'));
      continue;
    }
    const input: AudioInput = {
      input: local ?? clip.src,
      protocols: protocol === 'file' ? 'file' : protocol === 'data' ? 'data' : 'http,https,tcp,tls',
      start: clip.start,
      end: Math.min(clip.end, duration),
      volume: Math.min(1, clip.volume),
    };
    if (!(await hasAudioStream(input))) {
      issues.push(issue(AudioIssueCode.streamMissing, [clip.tag, 'src'], `<${clip.tag}> "${clip.src.slice(0, 100)}" has no audio stream`, 'warning'));
      continue;
    }
    inputs.push(input);
  }
  return { inputs, issues };
}

/** The FFmpeg executable for probing: `FX_FFPROBE` if set, else `ffprobe` on the PATH. */
const ffprobePath = () => process.env.FX_FFPROBE ?? 'ffprobe';

function hasAudioStream(input: AudioInput): Promise<boolean> {
  const args = ['-v', 'error', '-protocol_whitelist', input.protocols, '-select_streams', 'a', '-show_entries', 'stream=index', '-of', 'csv=p=0', input.input];
  return new Promise((resolve) => {
    execFile(ffprobePath(), args, { timeout: 15_000 }, (error, stdout) => resolve(!error && stdout.trim() !== ''));
  });
}

const seconds = (value: number) => value.toFixed(6);

/**
 * The FFmpeg arguments of the mux pass: the encoded video copied as is, each audio clip trimmed to its window,
 * delayed to its start, scaled by its volume, summed (no normalisation, so one clip plays at its own level) and
 * padded or cut to exactly the video's duration.
 */
export function audioMixArgs(videoPath: string, inputs: readonly AudioInput[], duration: number, audioCodec: readonly string[], container: readonly string[], format: string, outputPath: string): string[] {
  const filters = inputs.map((clip, index) => {
    const delayMs = Math.round(clip.start * 1000);
    return `[${index + 1}:a:0]aresample=48000,aformat=channel_layouts=stereo,atrim=end=${seconds(clip.end - clip.start)},asetpts=PTS-STARTPTS,volume=${clip.volume.toFixed(4)},adelay=delays=${delayMs}:all=1[a${index}]`;
  });
  const mixed = `${inputs.map((_, index) => `[a${index}]`).join('')}amix=inputs=${inputs.length}:normalize=0:duration=longest,apad=whole_dur=${seconds(duration)},atrim=end=${seconds(duration)}[audio]`;
  return [
    '-i', videoPath,
    ...inputs.flatMap((clip) => ['-protocol_whitelist', clip.protocols, '-i', clip.input]),
    '-filter_complex', [...filters, mixed].join(';'),
    '-map', '0:v:0', '-map', '[audio]',
    '-c:v', 'copy',
    ...audioCodec,
    '-ar', '48000',
    ...container,
    '-f', format,
    outputPath,
  ];
}
