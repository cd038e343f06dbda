import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { issue, type Issue } from '../../runtime/issues.js';
import { addressRules, publicAddresses, type AddressRules } from './public-address.js';

/** Requests of the page the renderer refused; the render goes on without what they would have loaded. */
export const NetworkIssueCode = {
  requestBlocked: 'network_request_blocked',
} as const;

/** Blocked URLs reported per render; more are counted in the last issue's message. */
const MAX_REPORTED = 10;
/** The one port a tunnel (CONNECT) may go to without the page having asked for an https: URL on another. */
const HTTPS_PORT = 443;

/** Where a request may go: the addresses its host was checked against, or why it may not. */
export type Route = { readonly addresses: readonly LookupAddress[] } | { readonly refusal: string };

/**
 * What one render may fetch, in its browsers and for FFmpeg: its own project server, `data:` and `blob:` URLs,
 * and http(s) hosts that resolve to public addresses only. An uploaded project must not reach the machine it
 * renders on or the network around it (cloud metadata, internal services, other renders' project servers) and
 * draw what it read into the video. `unsafeAllowPrivateNetwork` lifts the address rule (tests, local development).
 *
 * A host is resolved once per render, and the addresses checked are the ones the egress proxy connects to
 * (`route`, `tunnelRoute`): a host that answers differently later (DNS rebinding) changes nothing.
 */
export class RenderNetworkPolicy {
  readonly #hosts = new Map<string, Promise<readonly LookupAddress[] | undefined>>();
  /** `host:port` of the https: URLs allowed on a port other than 443: a tunnel may go there too. */
  readonly #tunnels = new Set<string>();
  readonly #blocked = new Map<string, string>();
  #blockedCount = 0;

  constructor(
    /** `http://127.0.0.1:<port>` of this render's project server. */
    readonly projectOrigin: string,
    readonly unsafeAllowPrivateNetwork: boolean,
    /** How hosts resolve and which addresses are private; tests replace them. */
    private readonly rules: AddressRules = addressRules(),
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
    if (this.unsafeAllowPrivateNetwork && (parsed.protocol === 'http:' || parsed.protocol === 'https:'))
      return undefined;
    const route = await this.#route(parsed);
    if ('refusal' in route) return route.refusal;
    if (parsed.protocol === 'https:' && parsed.port !== '') this.#tunnels.add(`${parsed.hostname}:${parsed.port}`);
    return undefined;
  }

  /** Where the proxy may forward a request for an http(s) `url`. */
  async route(url: string): Promise<Route> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { refusal: 'it is not a valid URL' };
    }
    return this.#route(parsed);
  }

  /**
   * Where the proxy may open a tunnel (CONNECT) to: port 443, or the port of an https: URL this policy allowed,
   * of a host that resolved to public addresses. `hostname` as the URL parser writes it (IPv6 in brackets).
   */
  async tunnelRoute(hostname: string, port: number): Promise<Route> {
    if (port !== HTTPS_PORT && !this.#tunnels.has(`${hostname}:${port}`)) {
      return {
        refusal: `a tunnel may only go to port ${HTTPS_PORT} or the port of an https: URL the page loads, got ${port}`,
      };
    }
    return this.route(`https://${hostname}:${port}/`);
  }

  /** Notes a refused browser request, for the render's issues. */
  noteBlocked(url: string, reason: string): void {
    this.#blockedCount++;
    if (this.#blocked.size < MAX_REPORTED && !this.#blocked.has(url)) this.#blocked.set(url, reason);
  }

  /** One warning per refused URL (the first few), the last one counting the rest. */
  issues(): Issue[] {
    const issues = [...this.#blocked].map(([url, reason]) =>
      issue(
        NetworkIssueCode.requestBlocked,
        ['network'],
        `the page's request for "${url.slice(0, 200)}" was blocked: ${reason}`,
        'warning',
      ),
    );
    const unreported = this.#blockedCount - [...this.#blocked].length;
    if (unreported > 0)
      issues.push(
        issue(NetworkIssueCode.requestBlocked, ['network'], `${unreported} more requests were blocked`, 'warning'),
      );
    return issues;
  }

  async #route(parsed: URL): Promise<Route> {
    if (parsed.origin === this.projectOrigin)
      return { addresses: [{ address: parsed.hostname, family: isIP(parsed.hostname) }] };
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return { refusal: `only http(s), data: and blob: URLs may be loaded, got "${parsed.protocol}"` };
    const addresses = await this.#addresses(parsed.hostname);
    return addresses ? { addresses } : { refusal: `host "${parsed.hostname}" is not a public address` };
  }

  /** One lookup per host and render: a page asks for the same host again and again (media ranges). */
  #addresses(hostname: string): Promise<readonly LookupAddress[] | undefined> {
    let answer = this.#hosts.get(hostname);
    if (!answer) {
      const rules = this.unsafeAllowPrivateNetwork
        ? { resolve: this.rules.resolve, isPrivate: () => false }
        : this.rules;
      answer = publicAddresses(hostname, rules);
      this.#hosts.set(hostname, answer);
    }
    return answer;
  }
}
