/**
 * Everything `fx` writes. Human mode: results on stdout, progress, warnings and errors on stderr, colours only on a
 * terminal without NO_COLOR. `--json`: one JSON object per line on stdout (`{"event": …}`), nothing else there, so
 * `fx … --json | jq` always parses; progress events come once per stage and per 10 %.
 */
import { styleText } from 'node:util';
import { StageTimer, timeText } from './stage-timing.js';

export const OutputEvent = {
  /**
   * A step began or advanced: `stage`, optional `fraction` (0–1) with `elapsed_s` and (once it can be told) `eta_s`,
   * `frames_done`/`frames_total` while frames render, `row` in a batch.
   */
  progress: 'progress',
  /** A command's result (its fields depend on the command). */
  result: 'result',
  /** A variable or lint warning that did not stop the command. */
  warning: 'warning',
  /** The failure that ended the command: `code`, `message`, `hint`, `exit_code`. */
  error: 'error',
  /** Plain information (file lists of `--dry-run`, the sign-in URL…). */
  info: 'info',
} as const;
export type OutputEvent = (typeof OutputEvent)[keyof typeof OutputEvent];

export interface OutputStreams {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

type Style = 'red' | 'yellow' | 'green' | 'dim' | 'bold' | 'cyan';

export class Output {
  readonly json: boolean;
  private readonly colour: boolean;
  private readonly live: boolean;
  private liveLine = false;
  private lastProgress = '';
  private readonly timer: StageTimer;

  constructor(
    private readonly streams: OutputStreams,
    options: { json: boolean; env: Readonly<Record<string, string | undefined>>; now?: () => number },
  ) {
    this.timer = new StageTimer(options.now);
    this.json = options.json;
    const terminal = streams.stderr.isTTY === true && options.env.TERM !== 'dumb';
    this.colour = terminal && !options.env.NO_COLOR;
    this.live = terminal && !this.json;
  }

  /** A machine event (with `--json`) — in human mode nothing: pair it with {@link line} where people need it. */
  event(event: OutputEvent, fields: Record<string, unknown> = {}): void {
    if (this.json) this.streams.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);
  }

  /** A line of the command's result on stdout (human mode only). */
  line(text: string): void {
    if (this.json) return;
    this.endLive();
    this.streams.stdout.write(`${text}\n`);
  }

  /** A note on stderr (human mode only). */
  note(text: string): void {
    if (this.json) return;
    this.endLive();
    this.streams.stderr.write(`${text}\n`);
  }

  warning(message: string, fields: Record<string, unknown> = {}): void {
    this.event(OutputEvent.warning, { message, ...fields });
    this.note(`${this.style('yellow', 'warning')}: ${message}`);
  }

  error(code: string, message: string, hint: string | undefined, exitCode: number): void {
    this.event(OutputEvent.error, { code, message, hint: hint ?? null, exit_code: exitCode });
    if (this.json) return;
    this.endLive();
    this.streams.stderr.write(`${this.style('red', code)}: ${message}\n`);
    if (hint) this.streams.stderr.write(`${this.style('dim', `hint: ${hint}`)}\n`);
  }

  /**
   * Progress of a stage; `label` is what people read (`Uploading 42%`). On a terminal one line is redrawn
   * with a bar; otherwise one line (or event) per stage and per 10 %, so logs stay short.
   */
  progress(
    stage: string,
    label: string,
    fraction: number | undefined,
    fields: Record<string, unknown> = {},
    /** In the event, but not one per change (frame counts). */
    counts: Record<string, number> = {},
  ): void {
    const step = fraction === undefined ? '' : String(Math.floor(fraction * 10));
    const stageKey = `${JSON.stringify(fields)}|${stage}`;
    // A stage with a fraction says how long it has run and has left.
    const time = fraction === undefined ? undefined : this.timer.read(stageKey, fraction);
    const text = time ? `${label}${timeText(time)}` : label;
    if (this.live) {
      const width = Math.max(10, Math.min(30, (this.streams.stderr.columns ?? 80) - text.length - 10));
      const bar = fraction === undefined ? '' : ` ${this.bar(fraction, width)}`;
      this.streams.stderr.write(`\r\x1b[2K${text}${bar}`);
      this.liveLine = true;
      return;
    }
    const key = `${stageKey}|${step}`;
    if (key === this.lastProgress) return;
    this.lastProgress = key;
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    this.event(OutputEvent.progress, {
      stage,
      ...(fraction === undefined ? {} : { fraction: Math.round(fraction * 1000) / 1000 }),
      ...(time ? { elapsed_s: seconds(time.elapsedMs) } : {}),
      ...(time?.leftMs === undefined ? {} : { eta_s: seconds(time.leftMs) }),
      ...counts,
      ...fields,
    });
    this.note(text);
  }

  style(style: Style, text: string): string {
    return this.colour ? styleText(style, text, { validateStream: false }) : text;
  }

  /** Ends a redrawn progress line so the next output starts on its own line. */
  endLive(): void {
    if (!this.liveLine) return;
    this.liveLine = false;
    this.streams.stderr.write('\n');
  }

  private bar(fraction: number, width: number): string {
    const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  }
}
