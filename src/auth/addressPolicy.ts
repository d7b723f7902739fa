/**
 * The address policy of OAuth discovery: every URL the auth code fetches (metadata named by a
 * server, authorization server endpoints, each redirect) is checked before the request, and
 * refused with `OAuthError` `address-refused` when it points at a loopback, private,
 * link-local, unique-local, CGNAT, unspecified or metadata address, unless the MCP server's
 * own host is of that kind (local development) or the URL is on the MCP server's own host.
 * Where a resolver exists (Node, Deno, Bun: `node:dns`, or the one given)
 * a host name is resolved and every address checked. The sender under {@link guardedFetch} is
 * handed the addresses checked: the Node one (`pinnedSend`) connects to exactly those (DNS
 * pinning), a plain `fetch` resolves the name again. Without a resolver (browsers) literal
 * addresses and known names only. Runtime-neutral.
 */
import type { FetchLike } from '../transport/http/stack.js';
import { addressKind, isIpLiteral, type AddressKind } from './addressKinds.js';
import { OAuthError } from './errors.js';

/** One resolved address, as `node:dns` `lookup(host, { all: true })` gives it. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to all its addresses (`node:dns/promises` `lookup(host, { all: true })`). */
export type AddressLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** What an app's own check is given: the URL about to be fetched and the addresses its host resolved to. */
export interface AddressCheckTarget {
  /** The URL about to be fetched (a metadata URL, an endpoint, a redirect's `Location`). */
  readonly url: string;
  /** Its host name (IPv6 in brackets), as `new URL(url).hostname` writes it. */
  readonly hostname: string;
  /** The addresses checked: the literal address, or what the resolver returned (none without a resolver). */
  readonly addresses: readonly string[];
}

/** The address policy of a provider (`OAuthProviderOptions.addressPolicy`). Every field is optional. */
export interface DiscoveryAddressPolicy {
  /** Kinds allowed on top of the MCP server's own kind (e.g. `['private']` for an internal authorization server). @default none */
  allow?: readonly AddressKind[] | undefined;
  /**
   * The app's own check, replacing the built-in one: return a reason (a string, put in
   * `data.reason`) to refuse the URL, `undefined` to allow it. Called for every URL, the MCP
   * server's own host included.
   */
  check?: ((target: AddressCheckTarget) => string | undefined) | undefined;
  /** The resolver. @default `node:dns` `lookup` with `{ all: true }` where `node:dns` exists; none in a browser */
  lookup?: AddressLookup | undefined;
  /** Redirects followed per metadata GET, each one checked. @default 5 */
  maxRedirects?: number | undefined;
}

/** The policy as the auth code runs it. */
export interface ResolvedAddressPolicy {
  /** The host names the app named itself (the MCP server's, an enterprise IdP's): exempt from the built-in check. */
  readonly appHosts: ReadonlySet<string>;
  /** Kinds allowed: the MCP server's own kind and `allow`. */
  readonly allowed: ReadonlySet<AddressKind>;
  readonly check: ((target: AddressCheckTarget) => string | undefined) | undefined;
  readonly lookup: AddressLookup | undefined;
  readonly maxRedirects: number;
}

/**
 * The policy for an MCP server at `serverUrl`, or `undefined` when `option` is `false`;
 * `appHosts` are exempt (the hosts the app named itself). The
 * MCP server's kind is read from its URL (a literal address, `localhost`), never from DNS, so a
 * server's own DNS cannot turn the exemption on.
 */
export function resolveAddressPolicy(
  serverUrl: URL,
  appHosts: readonly string[],
  option: DiscoveryAddressPolicy | false | undefined,
): ResolvedAddressPolicy | undefined {
  if (option === false) return undefined;
  const allowed = new Set<AddressKind>(option?.allow ?? []);
  const own = addressKind(serverUrl.hostname);
  if (own !== undefined) allowed.add(own);
  return {
    appHosts: new Set(appHosts),
    allowed,
    check: option?.check,
    lookup: option?.lookup ?? defaultLookup(),
    maxRedirects: option?.maxRedirects ?? 5,
  };
}

/**
 * `node:dns` `lookup` where the runtime has it (Node, Deno, Bun), through
 * `process.getBuiltinModule`: no import a browser bundler would try to resolve.
 */
function defaultLookup(): AddressLookup | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const dns = process?.getBuiltinModule?.('node:dns') as typeof import('node:dns') | undefined;
  if (dns?.promises?.lookup === undefined) return undefined;
  return (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
}

/**
 * Checks `url` against `policy` before any connection to it, and returns the addresses it
 * checked: the literal address, or every address the name resolved to (once); empty for a
 * host the app named itself, without a resolver, or for a name of a known kind (a metadata
 * name) when the app's own `check` decides.
 * @throws OAuthError `address-refused` (`data.url`, `data.reason`: the kind or the app check's
 *   reason, `data.actual`: the address), `network-error` when the name does not resolve; the
 *   signal's reason when it aborts.
 */
export async function checkAddress(
  url: string,
  policy: ResolvedAddressPolicy,
  signal: AbortSignal,
): Promise<readonly ResolvedAddress[]> {
  const parsed = new URL(url);
  const hostname = parsed.hostname;
  if (policy.appHosts.has(hostname) && policy.check === undefined) return [];
  const nameKind = addressKind(hostname);
  if (policy.check === undefined && nameKind !== undefined && !policy.allowed.has(nameKind))
    throw refused(parsed, nameKind, isIpLiteral(hostname) ? literalAddress(hostname) : undefined);
  let resolved: readonly ResolvedAddress[] = [];
  if (isIpLiteral(hostname)) {
    const address = literalAddress(hostname);
    resolved = [{ address, family: address.includes(':') ? 6 : 4 }];
  } else if (policy.lookup !== undefined && (nameKind === undefined || policy.check === undefined)) {
    // A name of an allowed kind (`localhost` for a local server) is resolved and checked too.
    resolved = await resolve(parsed, policy.lookup, signal);
  }
  const addresses = resolved.map((entry) => entry.address);
  if (policy.check !== undefined) {
    const reason = policy.check({ url: parsed.href, hostname, addresses });
    if (reason !== undefined) throw refused(parsed, reason, addresses[0]);
    return resolved;
  }
  for (const address of addresses) {
    const kind = addressKind(address);
    if (kind !== undefined && !policy.allowed.has(kind)) throw refused(parsed, kind, address);
  }
  return resolved;
}

/** The addresses `url`'s host name resolves to, at least one. */
async function resolve(url: URL, lookup: AddressLookup, signal: AbortSignal): Promise<readonly ResolvedAddress[]> {
  let resolved: readonly ResolvedAddress[];
  try {
    resolved = await lookup(url.hostname);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new OAuthError(`cannot resolve ${url.hostname}`, { failure: 'network-error', url: safeUrl(url) }, error);
  }
  if (signal.aborted) throw signal.reason;
  if (resolved.length === 0)
    throw new OAuthError(`cannot resolve ${url.hostname}: no address`, { failure: 'network-error', url: safeUrl(url) });
  return resolved;
}

/** A literal host as an address (IPv4 dotted decimal, IPv6 without brackets), as the URL parser writes it. */
function literalAddress(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function refused(url: URL, reason: string, address: string | undefined): OAuthError {
  const at = address === undefined || address === literalAddress(url.hostname) ? '' : ` (${address})`;
  return new OAuthError(
    `refusing to fetch ${safeUrl(url)}: ${url.hostname}${at} is a ${reason} address, and the MCP server is not`,
    {
      failure: 'address-refused',
      url: safeUrl(url),
      reason,
      ...(address !== undefined && { actual: address }),
    },
  );
}

/** The URL without credentials, query or fragment. */
function safeUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sends one request to `url` without following a redirect (`redirect: 'manual'` in `init`),
 * given the addresses {@link checkAddress} checked for it (possibly none). A sender that can
 * choose where it connects (`pinnedSend` on Node) connects to one of those and resolves
 * nothing again; a plain `fetch` ignores them.
 */
export type CheckedSend = (url: string, init: RequestInit, checked: readonly ResolvedAddress[]) => Promise<Response>;

/** A plain `fetch` as a {@link CheckedSend}: it resolves the name again (no DNS pinning). */
export function unpinnedSend(fetch: FetchLike): CheckedSend {
  return (url, init) => fetch(url, init);
}

/**
 * `send` behind `policy`: each URL is checked before it is requested. A request that asked
 * for `redirect: 'manual'` (every `oauth4webapi` request) gets the 3xx as is; a GET that would
 * follow redirects follows them here, checking each `Location`, at most `maxRedirects` times.
 * Where `Location` is hidden (a browser's opaque redirect) the runtime follows, and the final
 * URL is checked before the body is used.
 */
export function guardedFetch(send: CheckedSend, policy: ResolvedAddressPolicy): FetchLike {
  return async (input, init) => {
    const signal = init.signal ?? new AbortController().signal;
    const method = (init.method ?? 'GET').toUpperCase();
    const follow = init.redirect === undefined || init.redirect === 'follow';
    let url = input;
    for (let hop = 0; ; hop++) {
      const checked = await checkAddress(url, policy, signal);
      const response = await send(url, { ...init, redirect: 'manual' }, checked);
      if (response.type === 'opaqueredirect' && follow) {
        const followed = await send(url, init, checked);
        if (followed.url !== '') await checkFinal(followed, policy, signal);
        return followed;
      }
      const location = response.headers.get('location');
      if (!follow || !REDIRECTS.has(response.status) || location === null || (method !== 'GET' && method !== 'HEAD'))
        return response;
      await response.body?.cancel().catch(() => {});
      if (hop >= policy.maxRedirects) {
        throw new OAuthError(`more than ${policy.maxRedirects} redirects from ${input}`, {
          failure: 'network-error',
          url: input,
        });
      }
      url = new URL(location, url).href;
    }
  };
}

async function checkFinal(response: Response, policy: ResolvedAddressPolicy, signal: AbortSignal): Promise<void> {
  try {
    await checkAddress(response.url, policy, signal);
  } catch (error) {
    await response.body?.cancel().catch(() => {});
    throw error;
  }
}
