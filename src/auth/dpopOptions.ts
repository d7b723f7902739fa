/**
 * The `dpop` option of `createOAuthProvider()` (RFC 9449 sender-constrained tokens): where the
 * key pair comes from, and the check of a key pair the host gives. Runtime-neutral.
 */
import type * as oauth from 'oauth4webapi';
import { InvalidArgumentError } from '../errors/errors.js';

/**
 * Where the DPoP key pair comes from: the host's `CryptoKeyPair` (the runtime's Web Crypto
 * type, as `oauth4webapi` declares it: a private key with `sign`,
 * non-extractable preferably, and its extractable public key), or a function that loads it
 * (from a key store) when first needed. The function is called once per provider; when it
 * fails, again on the next need.
 */
export type DPoPKeySource = oauth.CryptoKeyPair | (() => Promise<oauth.CryptoKeyPair>);

/** The `dpop` option of `createOAuthProvider()`, as an object. */
export interface DPoPOptions {
  /**
   * The key pair proofs are signed with. Tokens are bound to it: a key that outlives the
   * process (from a key store) keeps stored DPoP tokens usable across restarts.
   * @default an ES256 key pair generated on first use, its private key non-extractable, kept in
   *   memory for the provider's lifetime
   */
  keyPair?: DPoPKeySource | undefined;
}

/**
 * Checks that `pair` is a DPoP key pair: a private key with the `sign` usage and an extractable
 * public key (its JWK goes in every proof).
 * @throws InvalidArgumentError (-32602) naming `name`, never showing the key.
 */
export function checkDPoPKeyPair(pair: unknown, name: string): asserts pair is oauth.CryptoKeyPair {
  const { privateKey, publicKey } = (pair ?? {}) as Partial<oauth.CryptoKeyPair>;
  if (
    privateKey?.type !== 'private' ||
    !Array.isArray(privateKey.usages) ||
    !privateKey.usages.includes('sign') ||
    publicKey?.type !== 'public' ||
    !publicKey.extractable
  ) {
    throw new InvalidArgumentError(
      name,
      '(hidden)',
      'expected a CryptoKeyPair: a private key with the sign usage and an extractable public key',
    );
  }
}
