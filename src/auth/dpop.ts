/**
 * DPoP (RFC 9449) for one OAuth provider, on `oauth4webapi`: the key pair (generated once, or
 * the host's own), its thumbprint, the handle that puts proofs on token requests and keeps the
 * authorization server's nonces, and the proofs for requests to the MCP server with the nonces
 * that server hands out. Web Crypto only; runtime-neutral.
 */
import * as oauth from 'oauth4webapi';
import { parseChallenges } from '../transport/http/challenges.js';
import { checkDPoPKeyPair, type DPoPKeySource } from './dpopOptions.js';

/** Most resource-server nonces kept (one per origin). */
const MAX_NONCES = 16;

interface LoadedKey {
  readonly handle: oauth.DPoPHandle;
  readonly jkt: string;
}

/**
 * The DPoP state of one provider. Proofs carry `htm`, `htu` (without query and fragment), `iat`,
 * a fresh `jti`, `ath` on resource requests, and the latest nonce of the server they go to.
 */
export class DPoPProver {
  private loading: Promise<LoadedKey> | undefined;
  /** `DPoP-Nonce` values of resource servers, by origin (the token endpoint's are the handle's own). */
  private readonly nonces = new Map<string, string>();

  constructor(private readonly source: DPoPKeySource | undefined) {}

  /**
   * The handle to pass as `DPoP` to an `oauth4webapi` token request.
   * @throws InvalidArgumentError (-32602) when the key source gives no usable key pair; what the
   *   loader throws.
   */
  async handle(): Promise<oauth.DPoPHandle> {
    return (await this.key()).handle;
  }

  /** The JWK SHA-256 thumbprint (RFC 7638) of the public key: the `cnf.jkt` of bound tokens. */
  async thumbprint(): Promise<string> {
    return (await this.key()).jkt;
  }

  /**
   * A proof for one request to a resource server presenting `accessToken` (its `ath`).
   * `oauth4webapi` builds and signs it as for its own resource requests; the request itself is
   * never sent from here (the fetch it is given only hands the `DPoP` header back).
   */
  async proof(method: string, url: string, accessToken: string): Promise<string> {
    const { handle } = await this.key();
    let proof: string | undefined;
    const capture = (_url: string, init: oauth.CustomFetchOptions<string, unknown>): Promise<Response> => {
      proof = init.headers['dpop'];
      return Promise.resolve(new Response(null, { status: 204 }));
    };
    await oauth.protectedResourceRequest(accessToken, method.toUpperCase(), new URL(url), undefined, undefined, {
      DPoP: handle,
      [oauth.customFetch]: capture,
      [oauth.allowInsecureRequests]: true,
    });
    if (proof === undefined) throw new Error('oauth4webapi made no DPoP proof');
    return proof;
  }

  /**
   * Reads a resource server's answer: keeps its `DPoP-Nonce` for the next proofs to that origin.
   * True when the answer is a 401 `use_dpop_nonce` challenge that came with a nonce, i.e. the
   * request is worth sending once more (RFC 9449 §9); the transport sends it once at most.
   */
  noteResponse(url: string, status: number, header: (name: string) => string | undefined): boolean {
    const nonce = header('dpop-nonce');
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return false;
    }
    if (nonce === undefined || nonce === '') return false;
    if (this.nonces.get(origin) !== nonce) {
      this.nonces.delete(origin);
      this.nonces.set(origin, nonce);
      while (this.nonces.size > MAX_NONCES) this.nonces.delete(this.nonces.keys().next().value as string);
    }
    // Concurrent requests sent before the nonce arrived all get the challenge: each retries once.
    if (status !== 401) return false;
    return parseChallenges(header('www-authenticate')).some(
      (c) => c.scheme.toLowerCase() === 'dpop' && c.params['error'] === 'use_dpop_nonce',
    );
  }

  private key(): Promise<LoadedKey> {
    if (this.loading === undefined) {
      const loading = this.load();
      this.loading = loading;
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }

  private async load(): Promise<LoadedKey> {
    const source = this.source;
    const pair =
      source === undefined
        ? await oauth.generateKeyPair('ES256')
        : typeof source === 'function'
          ? await source()
          : source;
    checkDPoPKeyPair(pair, 'dpop.keyPair');
    const handle = oauth.DPoP({}, pair, {
      // Resource requests (they carry `ath`) use the resource server's nonce; token requests the handle's own.
      [oauth.modifyAssertion]: (_header, payload) => {
        if (payload['ath'] === undefined || typeof payload['htu'] !== 'string') return;
        const nonce = this.nonces.get(new URL(payload['htu']).origin);
        if (nonce !== undefined) payload['nonce'] = nonce;
      },
    });
    return { handle, jkt: await handle.calculateThumbprint() };
  }
}
