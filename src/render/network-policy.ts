import { issue, type Issue } from '../runtime/issues.js';
import { resolvesToPublicAddresses } from './public-address.js';

/** Requests of the page the renderer refused; the render goes on without what they would have loaded. */
export const NetworkIssueCode = {
  requestBlocked: 'network_request_blocked',
} as const;

/** Blocked URLs reported per render; more are counted in the last issue's message. */
const MAX_REPORTED = 10;

/**
 * What one render may fetch, in its browsers and for FFmpeg: its own project server, `data:` and `blob:` URLs,
 * and http(s) hosts that resolve to public addresses only. An uploaded project must not reach the machine it
 * renders on or the network around it (cloud metadata, internal services, other renders' project servers) and
 * draw what it read into the video. `unsafeAllowPrivateNetwork` lifts the address rule (tests, local development).
 */
export class RenderNetworkPolicy {
  readonly #hosts = new Map<string, Promise<boolean>>();
  readonly #blocked = new Map<string, string>();
  #blockedCount = 0;

  constructor(
    /** `http://127.0.0.1:<port>` of this render's project server. */
    readonly projectOrigin: string,
    readonly unsafeAllowPrivateNetwork: boolean,
  ) {}

  /** Why `url` may not be fetched, or `undefined` when it may. */
  async refusal(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'it is not a valid URL';
    }
    if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return undefined;
    if (parsed.origin === this.projectOrigin) return undefined;
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `only http(s), data: and blob: URLs may be loaded, got "${parsed.protocol}"`;
    if (this.unsafeAllowPrivateNetwork) return undefined;
    return (await this.#resolvesPublic(parsed.hostname)) ? undefined : `host "${parsed.hostname}" is not a public address`;
  }

  /** Notes a refused browser request, for the render's issues. */
  noteBlocked(url: string, reason: string): void {
    this.#blockedCount++;
    if (this.#blocked.size < MAX_REPORTED && !this.#blocked.has(url)) this.#blocked.set(url, reason);
  }

  /** One warning per refused URL (the first few), the last one counting the rest. */
  issues(): Issue[] {
    const issues = [...this.#blocked].map(([url, reason]) =>
      issue(NetworkIssueCode.requestBlocked, ['network'], `the page's request for "${url.slice(0, 200)}" was blocked: ${reason}`, 'warning'),
    );
    const unreported = this.#blockedCount - [...this.#blocked].length;
    if (unreported > 0) issues.push(issue(NetworkIssueCode.requestBlocked, ['network'], `${unreported} more requests were blocked`, 'warning'));
    return issues;
  }

  /** One lookup per host and render: a page asks for the same host again and again (media ranges). */
  #resolvesPublic(hostname: string): Promise<boolean> {
    let answer = this.#hosts.get(hostname);
    if (!answer) {
      answer = resolvesToPublicAddresses(hostname);
      this.#hosts.set(hostname, answer);
    }
    return answer;
  }
}
