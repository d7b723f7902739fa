import { describe, expect, it } from 'vitest';
import {
  discoveryFromHandshake,
  initializeParams,
  readInitializeResult,
  withLegacyTtl,
} from '../../src/era/handshake.js';
import { ProtocolError, VersionNegotiationError } from '../../src/errors/errors.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../../src/era/era.js';

const RESULT = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'old', version: '2.0' },
  instructions: 'be nice',
};

describe('legacy handshake', () => {
  it('initializeParams: the version, a copy of the capabilities and the client info', () => {
    const capabilities = { roots: {} };
    const params = initializeParams('2025-11-25', capabilities, { name: 'host', version: '1' });
    expect(params).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { roots: {} },
      clientInfo: { name: 'host', version: '1' },
    });
    expect(params['capabilities']).not.toBe(capabilities);
  });

  it('readInitializeResult accepts a version the client speaks and keeps the result as received', () => {
    const handshake = readInitializeResult(RESULT, LEGACY_PROTOCOL_VERSIONS);
    expect(handshake).toMatchObject({
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'old', version: '2.0' },
      instructions: 'be nice',
    });
    expect(handshake.result).toBe(RESULT);
  });

  it('readInitializeResult refuses a version the client does not speak, and malformed results', () => {
    const error = (() => {
      try {
        readInitializeResult({ ...RESULT, protocolVersion: '2024-11-05' }, LEGACY_PROTOCOL_VERSIONS);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(VersionNegotiationError);
    expect((error as VersionNegotiationError).data).toEqual({
      clientSupported: [...LEGACY_PROTOCOL_VERSIONS],
      serverSupported: ['2024-11-05'],
    });
    expect(() =>
      readInitializeResult({ capabilities: {}, serverInfo: { name: 'x' } }, LEGACY_PROTOCOL_VERSIONS),
    ).toThrow(ProtocolError);
    expect(() =>
      readInitializeResult({ protocolVersion: '2025-11-25', serverInfo: { name: 'x' } }, LEGACY_PROTOCOL_VERSIONS),
    ).toThrow(ProtocolError);
    expect(() =>
      readInitializeResult({ protocolVersion: '2025-11-25', capabilities: {} }, LEGACY_PROTOCOL_VERSIONS),
    ).toThrow(ProtocolError);
  });

  it('discoveryFromHandshake: the negotiated version, capabilities, instructions and serverInfo in _meta', () => {
    const discovery = discoveryFromHandshake(readInitializeResult(RESULT, LEGACY_PROTOCOL_VERSIONS));
    expect(discovery).toEqual({
      supportedVersions: ['2025-06-18'],
      capabilities: { tools: { listChanged: true } },
      instructions: 'be nice',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'old', version: '2.0' } },
    });
  });

  it('withLegacyTtl stamps ttlMs only when configured and absent', () => {
    const result = { tools: [] };
    expect(withLegacyTtl(result, 0)).toBe(result);
    expect(withLegacyTtl(result, 30_000)).toEqual({ tools: [], ttlMs: 30_000 });
    const hinted = { tools: [], ttlMs: 5 };
    expect(withLegacyTtl(hinted, 30_000)).toBe(hinted);
  });
});
