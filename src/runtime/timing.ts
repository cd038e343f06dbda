import { issue, type Issue } from './issues.js';

/** One timed node: the root, a clip, a media element or a sub-composition instance. */
export interface TimedNode {
  /** Unique key within the composition (the runtime uses an element index). */
  readonly key: string;
  /** The `id` other clips may name in their `data-start`. */
  readonly id?: string | undefined;
  /** Key of the timed parent; absent for the root. */
  readonly parent?: string | undefined;
  /** Raw `data-start`: seconds, `id`, `id + 2`, `id - 0.5`. Absent means the parent's start. */
  readonly start?: string | null | undefined;
  /** Length in seconds; absent means "until the parent ends". */
  readonly duration?: number | undefined;
}

export interface TimeWindow {
  /** Absolute composition time the node starts at. */
  readonly start: number;
  /** Absolute time it ends at (exclusive), never past its parent's end. */
  readonly end: number;
}

export const TimingIssueCode = {
  startInvalid: 'start_invalid',
  startReferenceUnknown: 'start_reference_unknown',
  startCycle: 'start_cycle',
  startChainTooLong: 'start_chain_too_long',
} as const;

const MAX_CHAIN = 1000;

// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: the latter splits a long digit run every way before failing (quadratic).
const NUMBER = /^[+-]?(\d+(?:\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const REFERENCE = /^([A-Za-z_][\w.:-]*)\s*(?:([+-])\s*(\d+(?:\.\d*)?|\.\d+))?$/;

type Start = { kind: 'offset'; seconds: number } | { kind: 'after'; id: string; offset: number };

/** Parses a `data-start` value, or returns `undefined` when it is malformed. */
export function parseStart(raw: string): Start | undefined {
  const text = raw.trim();
  if (NUMBER.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) ? { kind: 'offset', seconds } : undefined;
  }
  const match = REFERENCE.exec(text);
  if (!match) return undefined;
  const amount = match[3] === undefined ? 0 : Number(match[3]);
  return { kind: 'after', id: match[1]!, offset: match[2] === '-' ? -amount : amount };
}

/**
 * Resolves every node's absolute window. Numeric starts are relative to the parent's start; a reference starts
 * when the named node ends, plus or minus an offset. Nodes are clamped to their parent. Unknown references,
 * cycles and malformed values fall back to the parent's start and are reported.
 */
export function resolveTiming(
  nodes: readonly TimedNode[],
  rootDuration: number,
): { windows: Map<string, TimeWindow>; issues: Issue[] } {
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const byId = new Map<string, TimedNode>();
  for (const node of nodes) if (node.id && !byId.has(node.id)) byId.set(node.id, node);
  const windows = new Map<string, TimeWindow>();
  const issues: Issue[] = [];
  const resolving = new Set<string>();

  const windowOf = (node: TimedNode): TimeWindow => {
    const known = windows.get(node.key);
    if (known) return known;
    const parent = node.parent === undefined ? undefined : byKey.get(node.parent);
    if (!parent) {
      const root = { start: 0, end: rootDuration };
      windows.set(node.key, root);
      return root;
    }
    if (resolving.has(node.key)) {
      issues.push(
        issue(
          TimingIssueCode.startCycle,
          [node.id ?? node.key, 'data-start'],
          `"data-start" of "${node.id ?? node.key}" depends on itself`,
        ),
      );
      return windowOf(parent);
    }
    resolving.add(node.key);
    const outer = windowOf(parent);
    let start = outer.start;
    if (node.start !== undefined && node.start !== null && node.start.trim() !== '') {
      const parsed = parseStart(node.start);
      if (!parsed) {
        issues.push(
          issue(
            TimingIssueCode.startInvalid,
            [node.id ?? node.key, 'data-start'],
            `"data-start" must be seconds or "id", "id + 2", "id - 0.5"; got "${node.start}"`,
          ),
        );
      } else if (parsed.kind === 'offset') {
        start = outer.start + parsed.seconds;
      } else {
        const target = byId.get(parsed.id);
        if (!target || target === node) {
          issues.push(
            issue(
              TimingIssueCode.startReferenceUnknown,
              [node.id ?? node.key, 'data-start'],
              `"data-start" names "${parsed.id}", which is no clip or composition id`,
            ),
          );
        } else if (resolving.size >= MAX_CHAIN) {
          // Forward references resolve recursively; a hostile chain must not exhaust the stack.
          issues.push(
            issue(
              TimingIssueCode.startChainTooLong,
              [node.id ?? node.key, 'data-start'],
              `"data-start" references chain more than ${MAX_CHAIN} clips deep`,
            ),
          );
        } else if (resolving.has(target.key)) {
          issues.push(
            issue(
              TimingIssueCode.startCycle,
              [node.id ?? node.key, 'data-start'],
              `"data-start" of "${node.id ?? node.key}" and "${parsed.id}" depend on each other`,
            ),
          );
        } else {
          start = windowOf(target).end + parsed.offset;
        }
      }
    }
    start = Math.min(Math.max(start, outer.start), outer.end);
    const end = node.duration === undefined ? outer.end : Math.min(start + Math.max(0, node.duration), outer.end);
    resolving.delete(node.key);
    const resolved = { start, end };
    windows.set(node.key, resolved);
    return resolved;
  };

  for (const node of nodes) windowOf(node);
  return { windows, issues };
}
