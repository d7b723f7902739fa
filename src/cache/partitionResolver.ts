/**
 * Whose request is this? The partition a request's private entries are looked up and stored
 * in, resolved before the lookup (spec: server/utilities/caching, "Cache Scope Field": private
 * results MUST NOT be shared across authorization contexts).
 *
 * The partition is that of the credential the request will be sent with, not of whatever was
 * sent last: a lookup sends nothing, so "the last credential sent" belongs to the previous
 * request, possibly another user's. Any store, shared or not, can rely on this: a private key
 * only ever carries the partition of the request that reads or writes it.
 */
import type { RequestCredential } from '../transport/transport.js';
import { isPromise, type MaybePromise } from '../util/maybePromise.js';
import { AuthPartitioner, type AuthContextSource, type AuthPartition } from './authContext.js';

/**
 * Resolves the credential a request would be sent with, without sending it (a transport's
 * `credentialFor`). The request must then be sent with that same credential.
 */
export type CredentialSource = (signal: AbortSignal | undefined) => MaybePromise<RequestCredential>;

/** One request's partition and the credential it must be sent with. */
export interface RequestAuth {
  /** Where the request's private entries are looked up and stored. */
  readonly partition: AuthPartition;
  /**
   * The credential the partition was resolved from: the request must be sent with it (it goes to
   * the loader). `undefined` when the partition comes from a declared auth context or when the
   * transport has no credentials.
   */
  readonly credential: RequestCredential | undefined;
}

/** Options of {@link PartitionResolver}. */
export interface PartitionResolverOptions {
  /** The host's declared auth context; when it yields a context, it decides the partition. */
  authContext?: AuthContextSource | undefined;
  /** The transport's credential of each request, used when no auth context is declared or it yields none. */
  credentials?: CredentialSource | undefined;
  /** True when the store may hold other clients' entries: then no partition means no private caching. */
  sharedStore: boolean;
}

/**
 * Resolves the partition of each request, in this order:
 *
 * 1. the declared auth context, when it yields one (the host vouches for it);
 * 2. else the credential the transport will send the request with, resolved now (the auth
 *    provider is asked for its first try; a static `Authorization` header is known already);
 *    the request is then sent with exactly that credential;
 * 3. else (no credential at all) this cache's own anonymous partition, or none with a shared
 *    store: private results are then not cached.
 *
 * Synchronous whenever the auth context and the credential are (a static header, a provider
 * that returns a string): a fresh hit then costs no promise.
 */
export class PartitionResolver {
  private readonly declared: AuthPartitioner;
  private readonly byCredential: AuthPartitioner;
  private readonly anonymous: AuthPartition;
  private readonly credentials: CredentialSource | undefined;
  private readonly hasDeclared: boolean;
  /** True when the last credential resolution was asynchronous: synchronous peeks then skip asking. */
  private lastAsync = false;
  /** Answers without a credential, made once: the hit path allocates nothing. */
  private readonly anonymousAuth: RequestAuth;
  private declaredAuth: RequestAuth | undefined;

  constructor(options: PartitionResolverOptions) {
    this.hasDeclared = options.authContext !== undefined;
    this.declared = new AuthPartitioner(options.authContext, options.sharedStore);
    this.byCredential = new AuthPartitioner(undefined, options.sharedStore);
    this.anonymous = this.declared.of(undefined);
    this.anonymousAuth = Object.freeze({ partition: this.anonymous, credential: undefined });
    this.credentials = options.credentials;
  }

  /**
   * The partition and credential of a request starting now.
   * @throws InvalidArgumentError (-32602) when the declared auth context is invalid; rejects with
   *   whatever the credential source (the auth provider) rejects with.
   */
  resolve(signal: AbortSignal | undefined): MaybePromise<RequestAuth> {
    if (this.hasDeclared) {
      const partition = this.declared.current();
      if (partition !== this.anonymous) return this.ofDeclared(partition);
    }
    const source = this.credentials;
    if (source === undefined) return this.anonymousAuth;
    const credential = source(signal);
    if (isPromise(credential)) {
      this.lastAsync = true;
      return credential.then((resolved) => this.ofCredential(resolved));
    }
    this.lastAsync = false;
    return this.ofCredential(credential);
  }

  /**
   * {@link resolve} when it can answer without a promise, else `undefined` (then call
   * {@link resolve}). Does not ask an auth provider that answered asynchronously last time.
   */
  resolveNow(): RequestAuth | undefined {
    if (this.lastAsync && this.credentials !== undefined) {
      if (!this.hasDeclared) return undefined;
      const partition = this.declared.current();
      return partition === this.anonymous ? undefined : this.ofDeclared(partition);
    }
    const resolved = this.resolve(undefined);
    if (!isPromise(resolved)) return resolved;
    resolved.then(undefined, () => {}); // asked for nothing: the next fetch asks again and reports
    return undefined;
  }

  /** The answer for a declared partition (the partitioner memoizes the last one; so does this). */
  private ofDeclared(partition: AuthPartition): RequestAuth {
    if (this.declaredAuth?.partition !== partition)
      this.declaredAuth = Object.freeze({ partition, credential: undefined });
    return this.declaredAuth;
  }

  private ofCredential(credential: RequestCredential): RequestAuth {
    const id = credential.id;
    const partition = id === undefined ? this.anonymous : this.byCredential.of({ credential: id });
    return { partition, credential };
  }
}
