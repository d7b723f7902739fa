/**
 * `WWW-Authenticate` parsing (RFC 9110 §11.6.1 and §11.2; Bearer parameters from RFC 6750 §3
 * and RFC 9728 §5.1): what the HTTP transports read of a 401 or 403 (they load this file when
 * one arrives), what DPoP reads of a `use_dpop_nonce` challenge, and what the root entry's
 * `parseWwwAuthenticate` and `bearerChallenge` run. Pure and runtime-neutral.
 *
 * ```
 * WWW-Authenticate = #challenge
 * challenge        = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 * auth-param       = token BWS "=" BWS ( token / quoted-string )
 * token68          = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 * ```
 */

import type { AuthChallenge, BearerChallenge } from './auth.js';

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

/**
 * Parses a `WWW-Authenticate` field value into its challenges, in order (see
 * `parseWwwAuthenticate`). Never throws.
 */
export function parseChallenges(header: string | null | undefined): AuthChallenge[] {
  if (typeof header !== 'string' || header.length === 0) return [];
  const parser = new Cursor(header);
  const challenges: AuthChallenge[] = [];
  for (;;) {
    parser.skipListSeparators();
    if (parser.done()) break;
    const scheme = parser.token();
    if (scheme === undefined) {
      parser.skipPast(',');
      continue;
    }
    const params: Record<string, string> = {};
    let token68: string | undefined;
    // The scheme must be followed by a space (then data), a comma or the end.
    const spaced = parser.skipSpaces();
    if (!parser.done() && parser.peek() !== ',' && spaced) {
      token68 = parser.tryToken68();
      if (token68 === undefined) parser.params(params);
    } else if (!parser.done() && parser.peek() !== ',') {
      parser.skipPast(',');
    }
    challenges.push(token68 === undefined ? { scheme, params } : { scheme, params, token68 });
  }
  return challenges;
}

/** The parameters of the challenge an OAuth client acts on (see `bearerChallenge`). */
export function pickBearerChallenge(challenges: readonly AuthChallenge[], sent?: string): BearerChallenge | undefined {
  const sentScheme = sent?.split(' ', 1)[0]?.toLowerCase();
  const find = (scheme: string | undefined) =>
    scheme === undefined ? undefined : challenges.find((c) => c.scheme.toLowerCase() === scheme);
  const bearer = find(sentScheme === 'dpop' ? 'dpop' : undefined) ?? find('bearer') ?? find('dpop');
  if (bearer === undefined) return undefined;
  const p = bearer.params;
  return {
    ...(p['resource_metadata'] !== undefined && { resourceMetadata: p['resource_metadata'] }),
    ...(p['scope'] !== undefined && { scope: p['scope'] }),
    ...(p['error'] !== undefined && { error: p['error'] }),
    ...(p['error_description'] !== undefined && { errorDescription: p['error_description'] }),
    ...(p['realm'] !== undefined && { realm: p['realm'] }),
  };
}

class Cursor {
  private pos = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.pos];
  }

  /** Skips spaces and tabs; true when at least one was skipped. */
  skipSpaces(): boolean {
    const start = this.pos;
    while (this.pos < this.text.length && (this.text[this.pos] === ' ' || this.text[this.pos] === '\t')) this.pos++;
    return this.pos > start;
  }

  /** Skips whitespace and empty list elements (`, ,`). */
  skipListSeparators(): void {
    while (this.pos < this.text.length && /[ \t,]/.test(this.text[this.pos]!)) this.pos++;
  }

  /** Skips to just after the next `char` outside quoted strings (or to the end). */
  skipPast(char: string): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++];
      if (c === '"') this.quotedRest();
      else if (c === char) return;
    }
  }

  token(): string | undefined {
    const start = this.pos;
    while (this.pos < this.text.length && TCHAR.test(this.text[this.pos]!)) this.pos++;
    return this.pos > start ? this.text.slice(start, this.pos) : undefined;
  }

  /** Reads a token68 when one stands alone (followed by optional spaces, then `,` or the end). */
  tryToken68(): string | undefined {
    const start = this.pos;
    while (this.pos < this.text.length && TOKEN68_CHAR.test(this.text[this.pos]!)) this.pos++;
    if (this.pos === start) return undefined;
    while (this.pos < this.text.length && this.text[this.pos] === '=') this.pos++;
    const value = this.text.slice(start, this.pos);
    this.skipSpaces();
    if (this.done() || this.peek() === ',') return value;
    this.pos = start;
    return undefined;
  }

  /** Reads `#auth-param` into `params`, stopping before the next challenge's scheme. */
  params(params: Record<string, string>): void {
    for (;;) {
      const start = this.pos;
      const name = this.token();
      this.skipSpaces();
      if (name === undefined) {
        this.skipPast(',');
        if (!this.nextIsParam()) return;
        continue;
      }
      if (this.peek() !== '=') {
        this.pos = start; // not a parameter: the next challenge starts here
        return;
      }
      this.pos++;
      this.skipSpaces();
      let value: string | undefined;
      if (this.peek() === '"') {
        this.pos++;
        value = this.quotedRest();
      } else {
        value = this.token();
      }
      const key = name.toLowerCase();
      if (value !== undefined && !Object.prototype.hasOwnProperty.call(params, key)) params[key] = value;
      this.skipSpaces();
      if (this.done()) return;
      if (this.peek() === ',') this.pos++;
      else this.skipPast(',');
      if (!this.nextIsParam()) return;
    }
  }

  /** After a comma: whether what follows is `token BWS "="` (a parameter), not a new challenge. */
  private nextIsParam(): boolean {
    this.skipListSeparators();
    const start = this.pos;
    const name = this.token();
    this.skipSpaces();
    const isParam = name !== undefined && this.peek() === '=';
    this.pos = start;
    return isParam;
  }

  /** Reads the rest of a quoted-string (after the opening quote), unescaping quoted-pairs. */
  private quotedRest(): string | undefined {
    let out = '';
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++]!;
      if (c === '"') return out;
      if (c === '\\' && this.pos < this.text.length) {
        out += this.text[this.pos++];
        continue;
      }
      out += c;
    }
    return undefined; // unterminated
  }
}
