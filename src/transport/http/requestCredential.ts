/**
 * The credential of one HTTP request, resolved before the request (for the response cache's
 * partition) and then sent as resolved: what `credentialFor()` of the HTTP transports returns.
 * Its id is computed by its maker (`credentialId` in pinnedCredential.ts, loaded on first use).
 * Runtime-neutral.
 */
import type { RequestCredential } from '../transport.js';

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
   * @param id `credentialId(value)` (pinnedCredential.ts); `undefined` exactly when `value` is
   */
  constructor(owner: object, value: string | undefined, id: string | undefined) {
    this.#owner = owner;
    this.#value = value;
    this.id = id;
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
