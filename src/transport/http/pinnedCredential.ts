/**
 * The credential of one HTTP request, resolved before the request (for the response cache's
 * partition) and then sent as resolved: what `credentialFor()` of the HTTP transports returns.
 * Runtime-neutral.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { RequestCredential } from '../transport.js';

/** An opaque, stable id of a credential value: 32 hex digits of a domain-separated SHA-256. */
export function credentialId(value: string): string {
  return `credential:${bytesToHex(sha256(utf8ToBytes(`mcp-live/authorization\u0000${value}`))).slice(0, 32)}`;
}

/**
 * A {@link RequestCredential} made by one transport. The `Authorization` value is a private
 * field: it is never enumerated, printed or serialised (`JSON.stringify` gives `id` and
 * `replaced` only), and only the transport that made it can read it back.
 */
export class PinnedCredential implements RequestCredential {
  readonly id: string | undefined;
  readonly #owner: object;
  readonly #value: string | undefined;
  #replaced = false;

  /**
   * @param owner the transport's token of ownership (compared by identity)
   * @param value the `Authorization` value, or `undefined` for a request without one
   * @param id its {@link credentialId}, when the caller computed it already
   */
  constructor(owner: object, value: string | undefined, id?: string) {
    this.#owner = owner;
    this.#value = value;
    this.id = value === undefined ? undefined : (id ?? credentialId(value));
  }

  get replaced(): boolean {
    return this.#replaced;
  }

  /** Records that a later try of the request carried another credential. */
  markReplaced(): void {
    this.#replaced = true;
  }

  /**
   * The pinned value when `credential` was made by `owner`: `{ value }` (with `value` undefined
   * for "no credential"); `undefined` for a credential made elsewhere (then ask afresh).
   */
  static valueFor(credential: RequestCredential | undefined, owner: object): { value: string | undefined } | undefined {
    if (!(credential instanceof PinnedCredential) || credential.#owner !== owner) return undefined;
    return { value: credential.#value };
  }

  toJSON(): { id: string | undefined; replaced: boolean } {
    return { id: this.id, replaced: this.#replaced };
  }
}
