import { spawn } from 'node:child_process';
import { executable } from './executables.js';
import { issue, type Issue } from '../runtime/issues.js';
import { listAudioClips, type PageAudioClip } from './frame-calls.js';
import type { RenderNetworkPolicy } from './network/policy.js';
import type { BrowserPage } from './page.js';
import type { ProjectServer } from './project-server.js';

/** Problems with audio sources; the render goes on without that source. */
export const AudioIssueCode = {
  sourceUnsupported: 'audio_source_unsupported',
  /** An http(s) source the render's network policy refuses (not a public address). */
  sourceBlocked: 'audio_source_blocked',
  streamMissing: 'audio_stream_missing',
} as const;

/**
 * The containers FFmpeg may open for audio: those Chromium plays (mp4/mov, WebM/Matroska, Ogg, MP3, WAV, FLAC,
 * AAC). Never a playlist or script format (HLS, concat, …) that would make FFmpeg open further files or URLs
 * of the file's choosing.
 */
const AUDIO_DEMUXERS = 'mov,matroska,ogg,mp3,wav,flac,aac';

/** An audio clip ready for FFmpeg: its input (file path or URL) and which protocols that input may use. */
export interface AudioInput {
  readonly input: string;
  readonly protocols: string;
  /** FFmpeg's options for this input: protocols, containers, no redirects. */
  readonly options: readonly string[];
  readonly start: number;
  readonly end: number;
  readonly volume: number;
  /** Seconds of the source skipped: a clip that began before the output's first frame (`range`) plays on from there. */
  readonly skip?: number;
}

/**
 * The clips of an output that begins `start` seconds into the timeline and lasts `duration`: offsets moved by
 * −start, a clip already playing at `start` picked up where it is then, clips wholly outside the output dropped.
 */
export function audioForRange(inputs: readonly AudioInput[], start: number, duration: number): AudioInput[] {
  if (start === 0) return inputs.filter((clip) => clip.start < duration);
  return inputs.flatMap((clip) => {
    const from = Math.max(clip.start, start);
    if (clip.end <= from || from >= start + duration) return [];
    return [{ ...clip, start: from - start, end: clip.end - start, skip: (clip.skip ?? 0) + (from - clip.start) }];
  });
}

/**
 * Lists `<audio>` (unless muted) and `<video data-has-audio>` elements of the loaded composition with their
 * resolved `src`, volume and clip window, read from the runtime (`__fx.clipWindow`) after `__fx.ready`.
 */
export function readPageAudio(page: BrowserPage): Promise<PageAudioClip[]> {
  return page.call('reading audio clips', listAudioClips);
}

export interface AudioSourcing {
  /** What FFmpeg may fetch: the same rule as the render's browsers. */
  readonly network: RenderNetworkPolicy;
  /**
   * Origin of the render's egress proxy (`egress-proxy.ts`) when the network is guarded: http(s) inputs go through
   * it, so FFmpeg connects to the addresses the policy checked instead of resolving the name again.
   */
  readonly proxy?: string;
  /** Stops probing (and kills a running ffprobe) when the render fails or is aborted. */
  readonly signal?: AbortSignal;
}

/**
 * Maps page URLs to FFmpeg inputs: project files by path, data: URLs as such, http(s) URLs the network policy
 * allows as such (FFmpeg follows no redirect); others are skipped with a warning.
 */
export async function audioInputs(
  clips: readonly PageAudioClip[],
  server: Pick<ProjectServer, 'localFile'>,
  duration: number,
  { network, proxy, signal }: AudioSourcing,
): Promise<{ inputs: AudioInput[]; issues: Issue[] }> {
  const inputs: AudioInput[] = [];
  const issues: Issue[] = [];
  for (const clip of clips) {
    signal?.throwIfAborted();
    if (clip.start >= duration || clip.volume <= 0) continue;
    const shown = `<${clip.tag}> "${clip.src.slice(0, 100)}"`;
    const local = await server.localFile(clip.src);
    const protocol = local ? 'file' : /^(https?|data):/i.exec(clip.src)?.[1]?.toLowerCase();
    if (!protocol) {
      issues.push(
        issue(
          AudioIssueCode.sourceUnsupported,
          [clip.tag, 'src'],
          `audio of ${shown} cannot be mixed: only project files, http(s) and data: URLs can`,
          'warning',
        ),
      );
      continue;
    }
    const refusal = protocol.startsWith('http') ? await network.refusal(clip.src) : undefined;
    if (refusal !== undefined) {
      issues.push(
        issue(
          AudioIssueCode.sourceBlocked,
          [clip.tag, 'src'],
          `audio of ${shown} cannot be mixed: ${refusal}`,
          'warning',
        ),
      );
      continue;
    }
    const remote = protocol.startsWith('http');
    const protocols =
      protocol === 'file'
        ? 'file'
        : protocol === 'data'
          ? 'data'
          : proxy
            ? 'http,https,tcp,tls,httpproxy'
            : 'http,https,tcp,tls';
    const input: AudioInput = {
      input: local ?? clip.src,
      protocols,
      options: [
        '-protocol_whitelist',
        protocols,
        '-format_whitelist',
        AUDIO_DEMUXERS,
        ...(remote ? ['-max_redirects', '0'] : []),
        ...(remote && proxy ? ['-http_proxy', proxy] : []),
      ],
      start: clip.start,
      end: Math.min(clip.end, duration),
      volume: Math.min(1, clip.volume),
    };
    const audible = await hasAudioStream(input, signal);
    signal?.throwIfAborted();
    if (!audible) {
      issues.push(
        issue(
          AudioIssueCode.streamMissing,
          [clip.tag, 'src'],
          `<${clip.tag}> "${clip.src.slice(0, 100)}" has no audio stream`,
          'warning',
        ),
      );
      continue;
    }
    inputs.push(input);
  }
  return { inputs, issues };
}

/** Longest an audio source may take to probe (a slow server); the render goes on without it then. */
const PROBE_TIMEOUT_MS = 15_000;

/** Whether FFmpeg finds an audio stream in the input. Settles only once ffprobe is gone (killed on `signal`). */
function hasAudioStream(input: AudioInput, signal: AbortSignal | undefined): Promise<boolean> {
  const args = [
    '-v',
    'error',
    ...input.options,
    '-select_streams',
    'a',
    '-show_entries',
    'stream=index',
    '-of',
    'csv=p=0',
    input.input,
  ];
  return new Promise((resolve) => {
    const child = spawn(executable('ffprobe'), args, {
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: PROBE_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      ...(signal ? { signal } : {}),
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    // Not found, aborted: either way 'close' follows, after the process is gone.
    child.on('error', () => undefined);
    child.once('close', (code) => resolve(code === 0 && stdout.trim() !== ''));
  });
}

const seconds = (value: number) => value.toFixed(6);

/**
 * The FFmpeg arguments of the mux pass: the encoded video copied as is, each audio clip trimmed to its window,
 * delayed to its start, scaled by its volume, summed (no normalisation, so one clip plays at its own level) and
 * padded or cut to exactly the video's duration.
 */
export function audioMixArgs(
  /** FFmpeg's input arguments of the video (`-i file`, or a concat list). */
  videoInput: readonly string[],
  inputs: readonly AudioInput[],
  duration: number,
  audioCodec: readonly string[],
  container: readonly string[],
  format: string,
  outputPath: string,
): string[] {
  const filters = inputs.map((clip, index) => {
    const delayMs = Math.round(clip.start * 1000);
    const skip = clip.skip ?? 0;
    const trim =
      skip > 0
        ? `start=${seconds(skip)}:end=${seconds(skip + clip.end - clip.start)}`
        : `end=${seconds(clip.end - clip.start)}`;
    return `[${index + 1}:a:0]aresample=48000,aformat=channel_layouts=stereo,atrim=${trim},asetpts=PTS-STARTPTS,volume=${clip.volume.toFixed(4)},adelay=delays=${delayMs}:all=1[a${index}]`;
  });
  const mixed = `${inputs.map((_, index) => `[a${index}]`).join('')}amix=inputs=${inputs.length}:normalize=0:duration=longest,apad=whole_dur=${seconds(duration)},atrim=end=${seconds(duration)}[audio]`;
  return [
    ...videoInput,
    ...inputs.flatMap((clip) => [...clip.options, '-i', clip.input]),
    '-filter_complex',
    [...filters, mixed].join(';'),
    '-map',
    '0:v:0',
    '-map',
    '[audio]',
    '-c:v',
    'copy',
    ...audioCodec,
    '-ar',
    '48000',
    ...container,
    '-f',
    format,
    outputPath,
  ];
}
