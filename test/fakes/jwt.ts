/**
 * JWTs for the OAuth fakes, on node:crypto: signing (workload tokens, ID tokens, ID-JAGs),
 * verifying compact ES256/RS256 JWTs against a JWK, RFC 7638 thumbprints, and the checks of a
 * DPoP proof (RFC 9449 §4.3) that a resource server or token endpoint makes.
 */
import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

export interface DecodedJwt {
  header: Record<string, any>;
  payload: Record<string, any>;
}

/** The header and payload of a compact JWT, unverified; `undefined` when it is not one. */
export function decodeJwt(jwt: string): DecodedJwt | undefined {
  const parts = jwt.split('.');
  if (parts.length !== 3) return undefined;
  try {
    return {
      header: JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')),
      payload: JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')),
    };
  } catch {
    return undefined;
  }
}

/** An ES256 key pair: the private key for signing, the public JWK for verifying. */
export function es256KeyPair(): { privateKey: KeyObject; publicJwk: JsonWebKey; privatePem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey,
    publicJwk: publicKey.export({ format: 'jwk' }),
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
  };
}

/** Signs `payload` with an ES256 key (`iat` and `jti` added unless given). */
export function signJwt(
  payload: Record<string, unknown>,
  privateKey: KeyObject,
  header: Record<string, unknown> = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const head = Buffer.from(JSON.stringify({ alg: 'ES256', ...header })).toString('base64url');
  const body = Buffer.from(JSON.stringify({ iat: now, jti: randomUUID(), ...payload })).toString('base64url');
  const signature = sign('sha256', Buffer.from(`${head}.${body}`), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${head}.${body}.${signature.toString('base64url')}`;
}

/** True when `jwt` is signed by the key of `jwk` (ES256, ES384, RS256, PS256). */
export function verifyJwt(jwt: string, jwk: JsonWebKey): boolean {
  const parts = jwt.split('.');
  const decoded = decodeJwt(jwt);
  if (decoded === undefined || parts.length !== 3) return false;
  const alg = String(decoded.header['alg']);
  const hash = { ES256: 'sha256', ES384: 'sha384', RS256: 'sha256', PS256: 'sha256' }[alg];
  if (hash === undefined) return false;
  try {
    const key = createPublicKey({ key: jwk as any, format: 'jwk' });
    return verify(
      hash,
      Buffer.from(`${parts[0]}.${parts[1]}`),
      alg.startsWith('PS')
        ? { key, padding: 6, saltLength: 32 }
        : { key, ...(alg.startsWith('ES') && { dsaEncoding: 'ieee-p1363' as const }) },
      Buffer.from(parts[2]!, 'base64url'),
    );
  } catch {
    return false;
  }
}

/** The RFC 7638 SHA-256 thumbprint of a public EC or RSA JWK, base64url. */
export function jwkThumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
        : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

/** A DPoP proof that passed the checks of RFC 9449 §4.3. */
export interface CheckedProof {
  header: Record<string, any>;
  payload: Record<string, any>;
  /** The thumbprint of the proof's key. */
  jkt: string;
}

/**
 * Checks a DPoP proof for one request: one proof, `typ` dpop+jwt, an asymmetric `alg`, a public
 * `jwk` that verifies the signature, `jti`, `htm`, `htu` (no query or fragment, equal to the
 * request URL's origin and path), `iat` within 300 s, and `ath` when an access token is
 * presented. Returns the proof, or the reason it fails.
 */
export function checkDPoPProof(
  proof: string | string[] | undefined,
  request: { method: string; url: string; accessToken?: string | undefined },
): CheckedProof | string {
  if (proof === undefined) return 'no DPoP header';
  if (Array.isArray(proof) || proof.includes(',')) return 'several DPoP headers';
  const decoded = decodeJwt(proof);
  if (decoded === undefined) return 'not a JWT';
  const { header, payload } = decoded;
  if (header['typ'] !== 'dpop+jwt') return 'typ';
  if (typeof header['alg'] !== 'string' || header['alg'] === 'none' || header['alg'].startsWith('HS')) return 'alg';
  const jwk = header['jwk'];
  if (typeof jwk !== 'object' || jwk === null || 'd' in jwk) return 'jwk';
  if (!verifyJwt(proof, jwk)) return 'signature';
  if (typeof payload['jti'] !== 'string' || payload['jti'].length < 16) return 'jti';
  if (payload['htm'] !== request.method) return `htm ${payload['htm']} for ${request.method}`;
  const target = new URL(request.url);
  if (typeof payload['htu'] !== 'string' || /[?#]/.test(payload['htu'])) return 'htu has query or fragment';
  if (payload['htu'] !== `${target.origin}${target.pathname}`) return `htu ${payload['htu']}`;
  if (typeof payload['iat'] !== 'number' || Math.abs(Date.now() / 1000 - payload['iat']) > 300) return 'iat';
  if (request.accessToken !== undefined) {
    const ath = createHash('sha256').update(request.accessToken).digest('base64url');
    if (payload['ath'] !== ath) return 'ath';
  } else if (payload['ath'] !== undefined) return 'ath on a token request';
  return { header, payload, jkt: jwkThumbprint(jwk) };
}
