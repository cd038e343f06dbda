/**
 * The part of oidc-provider 9 (which ships no types) this service uses. Kept narrow on purpose: the
 * configuration object is checked by oidc-provider itself at construction.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    jti?: string;
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: unknown;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface PromptDetails {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  }

  export interface InteractionDetails {
    readonly uid: string;
    readonly prompt: { name: string; reasons: string[]; details: PromptDetails };
    readonly params: Record<string, unknown> & { client_id?: string };
    readonly session?: { accountId: string; uid: string };
    readonly grantId?: string;
    readonly lastSubmission?: Record<string, unknown>;
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    static find(id: string): Promise<Grant | undefined>;
    readonly jti: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface Client {
    readonly clientId: string;
    readonly clientName?: string;
    readonly applicationType: 'web' | 'native';
    readonly redirectUris: string[];
    readonly clientAuthMethod: string;
  }

  export class OIDCProviderError extends Error {
    readonly error: string;
    readonly error_description?: string;
    readonly status: number;
    readonly statusCode: number;
    readonly expose: boolean;
  }

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    InvalidGrant: new (description?: string) => OIDCProviderError;
    AccessDenied: new (description?: string) => OIDCProviderError;
    SessionNotFound: new (description?: string) => OIDCProviderError;
    InvalidTarget: new (description?: string) => OIDCProviderError;
  };

  export type Configuration = Record<string, unknown>;

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    proxy: boolean;
    readonly Grant: typeof Grant;
    readonly Client: { find(id: string): Promise<Client | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: any[]) => void): this;
    /** Koa middleware, run before the provider's own. */
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): this;
  }

  export default Provider;
}
