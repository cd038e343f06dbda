/**
 * The sound of an export, mixed as the server renderer mixes it (src/render/audio.ts `audioMixArgs`): each clip the
 * runtime lists (`__fx.audioClips`) trimmed to its window, placed at its start, scaled by its volume and summed
 * with no normalisation, in 48 kHz stereo, exactly as long as the video. An `OfflineAudioContext` renders it.
 */
import type { AudioClip } from '../runtime/frame/contract.js';
import { issue, type Issue } from '../runtime/issues.js';

export const AUDIO_SAMPLE_RATE = 48_000;

/** A clip the export could not read or decode is left silent and said, as the renderer does. */
export const ExportAudioIssueCode = {
  sourceUnavailable: 'export_audio_source_unavailable',
} as const;

export interface MixedAudio {
  /** `undefined` when the composition has no sound. */
  readonly buffer: AudioBuffer | undefined;
  readonly issues: Issue[];
}

/**
 * Mixes `clips` over `duration` seconds from `files`, the project's files the host fetched itself (by URL). A clip
 * names its source from inside the frame, which is hostile: the host never fetches a URL only the frame named.
 */
export async function mixAudio(
  clips: readonly AudioClip[],
  files: ReadonlyMap<string, Blob>,
  duration: number,
): Promise<MixedAudio> {
  const issues: Issue[] = [];
  if (clips.length === 0 || typeof OfflineAudioContext === 'undefined') return { buffer: undefined, issues };
  const context = new OfflineAudioContext(2, Math.max(1, Math.round(duration * AUDIO_SAMPLE_RATE)), AUDIO_SAMPLE_RATE);
  let placed = 0;
  for (const [index, clip] of clips.entries()) {
    const file = files.get(clip.src);
    const decoded = file && (await decode(context, file));
    if (!decoded) {
      issues.push(
        issue(
          ExportAudioIssueCode.sourceUnavailable,
          ['audio', index],
          `the sound of <${clip.tag}> ${JSON.stringify(clip.src.slice(0, 200))} is not a project file the page could read, or does not decode; it is left out`,
          'warning',
        ),
      );
      continue;
    }
    if (clip.start >= duration) continue;
    const source = context.createBufferSource();
    source.buffer = decoded;
    const gain = context.createGain();
    gain.gain.value = clip.volume;
    source.connect(gain).connect(context.destination);
    source.start(clip.start, 0, Math.min(clip.end, duration) - clip.start);
    placed++;
  }
  if (placed === 0) return { buffer: undefined, issues };
  return { buffer: await context.startRendering(), issues };
}

async function decode(context: BaseAudioContext, file: Blob): Promise<AudioBuffer | undefined> {
  return context.decodeAudioData(await file.arrayBuffer()).catch(() => undefined);
}
