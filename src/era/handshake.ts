/**
 * The `initialize` handshake of the legacy wire (spec 2025-11-25: basic/lifecycle,
 * Initialization and Version Negotiation): the request params, the checks on its result, and
 * the views of that result the client keeps in both eras. Pure.
 */
import { ProtocolError, VersionNegotiationError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import {
  MetaKey,
  type ClientCapabilities,
  type DiscoverResult,
  type Implementation,
  type ServerCapabilities,
} from '../wire/protocol.js';

/** What `initialize` told the client, in the shape it keeps for both eras. */
export interface LegacyHandshake {
  /** The version the server answered with; one of the client's legacy versions. */
  protocolVersion: string;
  /** The server's capabilities (`listChanged`, `subscribe`, `logging`...). */
  capabilities: ServerCapabilities;
  /** The server's self-reported identity; display only. */
  serverInfo: Implementation;
  /** The server's `instructions` for models, if any. */
  instructions: string | undefined;
  /** The InitializeResult exactly as received. */
  result: JsonObject;
}

/**
 * Params of `initialize`: the preferred legacy version, the client's capabilities and its
 * client info. The capabilities are the ones declared on the modern wire, derived from the same
 * handlers, so a client without an elicitation handler declares no `elicitation` in either era.
 */
export function initializeParams(
  version: string,
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
): JsonObject {
  return {
    protocolVersion: version,
    capabilities: { ...capabilities },
    clientInfo: { ...clientInfo },
  };
}

/**
 * Reads an InitializeResult. The server answers with the version asked for or another one it
 * supports; the client continues only if it speaks that one too (else it should disconnect).
 * @throws ProtocolError (-32600) when `protocolVersion`, `capabilities` or `serverInfo.name` is missing.
 * @throws VersionNegotiationError (-32022) when the server's version is not one of `ours`.
 */
export function readInitializeResult(result: JsonObject, ours: readonly string[]): LegacyHandshake {
  const version = result['protocolVersion'];
  const capabilities = result['capabilities'];
  const serverInfo = result['serverInfo'];
  if (typeof version !== 'string')
    throw new ProtocolError('result has no protocolVersion string', { method: 'initialize', value: result });
  if (!isObject(capabilities))
    throw new ProtocolError('result has no capabilities object', { method: 'initialize', value: result });
  if (!isObject(serverInfo) || typeof serverInfo['name'] !== 'string') {
    throw new ProtocolError('result has no serverInfo with a name', { method: 'initialize', value: result });
  }
  if (!ours.includes(version))
    throw new VersionNegotiationError({ clientSupported: [...ours], serverSupported: [version] });
  const instructions = result['instructions'];
  return {
    protocolVersion: version,
    capabilities: capabilities,
    serverInfo: { version: '', ...serverInfo } as unknown as Implementation,
    instructions: typeof instructions === 'string' ? instructions : undefined,
    result,
  };
}

/**
 * The DiscoverResult a legacy server would have sent: `supportedVersions` is the negotiated
 * version alone; `capabilities`, `instructions` and `_meta["io.modelcontextprotocol/serverInfo"]`
 * come from the InitializeResult. It carries no cache hints.
 */
export function discoveryFromHandshake(handshake: LegacyHandshake): DiscoverResult {
  return {
    supportedVersions: [handshake.protocolVersion],
    capabilities: handshake.capabilities,
    ...(handshake.instructions !== undefined && { instructions: handshake.instructions }),
    _meta: { [MetaKey.serverInfo]: handshake.serverInfo },
  };
}

/**
 * A legacy result with the host's default freshness: legacy servers send no `ttlMs`, so the
 * cache keeps nothing (ttl 0) unless the host configured `legacyTtlMs`. Returns `result` itself
 * when `ttlMs` is 0 or the result already has a `ttlMs`; otherwise a copy with `ttlMs` set
 * (scope stays private: no `cacheScope` means private).
 */
export function withLegacyTtl(result: JsonObject, ttlMs: number): JsonObject {
  if (ttlMs <= 0 || Object.hasOwn(result, 'ttlMs')) return result;
  return { ...result, ttlMs };
}
