/**
 * Where the OAuth provider keeps tokens and dynamically registered clients. A dumb store: the
 * provider decides what to keep, replace and drop. Runtime-neutral.
 */
import type { MaybePromise } from '../util/maybePromise.js';
import type { StoredClient, StoredTokens } from './types.js';

/**
 * Persistence for the OAuth provider. Tokens are keyed by the MCP server (the provider's
 * `serverUrl`, without fragment); registered clients by the issuer of the authorization server
 * that registered them, so a client id is never presented to another server. Values are
 * secrets: an implementation must keep them confidential (encrypted storage, file mode 0600...).
 *
 * The provider re-reads tokens before it spends a refresh token or starts a new authorization,
 * so a store shared between processes lets one process pick up what another refreshed. It
 * never calls a `delete*` method except from `signOut()`.
 */
export interface CredentialStore {
  /** The tokens of `serverKey`, or `undefined`. */
  getTokens(serverKey: string): MaybePromise<StoredTokens | undefined>;
  /** Replaces the tokens of `serverKey`. */
  setTokens(serverKey: string, tokens: StoredTokens): MaybePromise<void>;
  /** Forgets the tokens of `serverKey`. */
  deleteTokens(serverKey: string): MaybePromise<void>;
  /** The client registered with `issuer`, or `undefined`. */
  getClient(issuer: string): MaybePromise<StoredClient | undefined>;
  /** Replaces the client registered with `issuer`. */
  setClient(issuer: string, client: StoredClient): MaybePromise<void>;
  /** Forgets the client registered with `issuer`. */
  deleteClient(issuer: string): MaybePromise<void>;
}

/**
 * The default {@link CredentialStore}: two maps in memory, lost when the process ends. Values
 * are copied in and out, so callers cannot change what is stored by mutating a result.
 */
export class MemoryCredentialStore implements CredentialStore {
  private readonly tokens = new Map<string, StoredTokens>();
  private readonly clients = new Map<string, StoredClient>();

  getTokens(serverKey: string): StoredTokens | undefined {
    const value = this.tokens.get(serverKey);
    return value === undefined ? undefined : { ...value };
  }

  setTokens(serverKey: string, tokens: StoredTokens): void {
    this.tokens.set(serverKey, { ...tokens });
  }

  deleteTokens(serverKey: string): void {
    this.tokens.delete(serverKey);
  }

  getClient(issuer: string): StoredClient | undefined {
    const value = this.clients.get(issuer);
    return value === undefined ? undefined : { ...value, redirectUris: [...value.redirectUris] };
  }

  setClient(issuer: string, client: StoredClient): void {
    this.clients.set(issuer, { ...client, redirectUris: [...client.redirectUris] });
  }

  deleteClient(issuer: string): void {
    this.clients.delete(issuer);
  }
}
