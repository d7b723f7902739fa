import { describe, expect, it } from 'vitest';
import { negotiateEra, type EraDeps, type EraSettings } from '../../src/era/connector.js';
import type { Era } from '../../src/era/era.js';
import type { LegacyHandshake } from '../../src/era/handshake.js';
import {
  ConnectionClosedError,
  ProtocolError,
  RpcError,
  TimeoutError,
  UnsupportedProtocolVersionError,
  VersionNegotiationError,
} from '../../src/errors/errors.js';
import { EraDetectionError } from '../../src/era/errors.js';
import type { DiscoverResult } from '../../src/wire/protocol.js';

const DISCOVERY: DiscoverResult = { supportedVersions: ['2026-07-28'], capabilities: {} };
const HANDSHAKE: LegacyHandshake = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  serverInfo: { name: 'old', version: '1' },
  instructions: undefined,
  result: {},
};

type Step = { discover: string; probeTimeoutMs: number | undefined } | { initialize: true };

/** Hooks that answer from scripts and record each call. */
function hooks(script: {
  discover?: Array<DiscoverResult | Error>;
  initialize?: Array<LegacyHandshake | Error>;
}): EraDeps & { calls: Step[] } {
  const discover = [...(script.discover ?? [])];
  const initialize = [...(script.initialize ?? [])];
  const calls: Step[] = [];
  const next = <T>(queue: Array<T | Error>): Promise<T> => {
    const item = queue.shift();
    if (item === undefined) return Promise.reject(new Error('unscripted call'));
    return item instanceof Error ? Promise.reject(item) : Promise.resolve(item);
  };
  return {
    calls,
    discover: (version, probeTimeoutMs) => {
      calls.push({ discover: version, probeTimeoutMs });
      return next(discover);
    },
    initialize: () => {
      calls.push({ initialize: true });
      return next(initialize);
    },
  };
}

function settings(overrides: Partial<EraSettings> = {}): EraSettings {
  return {
    era: 'auto',
    memory: new Map<string, Era>(),
    serverIdentity: 'node server.js',
    modernVersions: ['2026-07-28'],
    legacyVersions: ['2025-11-25', '2025-06-18', '2025-03-26'],
    probeTimeoutMs: 5000,
    ...overrides,
  };
}

const unsupported = (supported: string[]) =>
  new UnsupportedProtocolVersionError(
    { code: -32022, message: 'Unsupported protocol version', data: { supported, requested: '2026-07-28' } },
    'server/discover',
  );
const timeout = () => new TimeoutError({ method: 'server/discover', timeoutMs: 5000, kind: 'idle' });

describe('negotiateEra', () => {
  it('auto, a DiscoverResult: modern, probed with the probe timeout, remembered', async () => {
    const s = settings();
    const h = hooks({ discover: [DISCOVERY] });
    expect(await negotiateEra(s, h)).toEqual({ era: 'modern', protocolVersion: '2026-07-28', discovery: DISCOVERY });
    expect(h.calls).toEqual([{ discover: '2026-07-28', probeTimeoutMs: 5000 }]);
    expect(s.memory.get('node server.js')).toBe('modern');
  });

  it('auto, -32601 on stdio: initialize; remembered as legacy', async () => {
    const s = settings();
    const h = hooks({
      discover: [new RpcError({ code: -32601, message: 'Method not found' }, 'server/discover')],
      initialize: [HANDSHAKE],
    });
    expect(await negotiateEra(s, h)).toEqual({ era: 'legacy', protocolVersion: '2025-11-25', handshake: HANDSHAKE });
    expect(h.calls).toEqual([{ discover: '2026-07-28', probeTimeoutMs: 5000 }, { initialize: true }]);
    expect(s.memory.get('node server.js')).toBe('legacy');
  });

  it('a first probe answered -32601 after another client of the same server remembered legacy: initialize, no TypeError', async () => {
    const s = settings();
    s.memory.set('node server.js', 'legacy');
    const h = hooks({ initialize: [HANDSHAKE] });
    const first = { error: new RpcError({ code: -32601, message: 'Method not found' }, 'server/discover') };
    expect(await negotiateEra(s, h, first)).toEqual({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      handshake: HANDSHAKE,
    });
    expect(h.calls).toEqual([{ initialize: true }]);
  });

  it('auto, -32022 naming a shared modern version: asks again with it (normal timeout), no fallback', async () => {
    const h = hooks({ discover: [unsupported(['2026-07-28']), { ...DISCOVERY }] });
    const outcome = await negotiateEra(settings({ modernVersions: ['2027-01-01', '2026-07-28'] }), h);
    expect(outcome).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(h.calls).toEqual([
      { discover: '2027-01-01', probeTimeoutMs: 5000 },
      { discover: '2026-07-28', probeTimeoutMs: undefined },
    ]);
  });

  it('auto, -32022 to 2026-07-28 whose list names 2026-07-28 and 2025-11-25: never re-sends the refused version', async () => {
    const h = hooks({ discover: [unsupported(['2026-07-28', '2025-11-25'])], initialize: [HANDSHAKE] });
    expect(await negotiateEra(settings(), h)).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(h.calls).toEqual([{ discover: '2026-07-28', probeTimeoutMs: 5000 }, { initialize: true }]);
  });

  it('-32022 whose list names only the refused version: sent once more (conformance request-metadata), modern', async () => {
    const h = hooks({ discover: [unsupported(['2026-07-28']), DISCOVERY] });
    expect(await negotiateEra(settings(), h)).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(h.calls).toEqual([
      { discover: '2026-07-28', probeTimeoutMs: 5000 },
      { discover: '2026-07-28', probeTimeoutMs: undefined },
    ]);
  });

  it('-32022 naming only the refused version, twice: VersionNegotiationError after one retry, no loop', async () => {
    const h = hooks({ discover: [unsupported(['2026-07-28']), unsupported(['2026-07-28'])] });
    const error = await negotiateEra(settings({ era: 'modern' }), h).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionNegotiationError);
    expect(h.calls).toEqual([
      { discover: '2026-07-28', probeTimeoutMs: undefined },
      { discover: '2026-07-28', probeTimeoutMs: undefined },
    ]);
  });

  it('auto, -32022 naming only legacy versions this client speaks: initialize', async () => {
    const h = hooks({ discover: [unsupported(['2025-11-25'])], initialize: [HANDSHAKE] });
    expect((await negotiateEra(settings(), h)).era).toBe('legacy');
  });

  it('-32022 naming nothing shared: VersionNegotiationError with both lists', async () => {
    const error = await negotiateEra(settings(), hooks({ discover: [unsupported(['2030-01-01'])] })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VersionNegotiationError);
    expect((error as VersionNegotiationError).data).toEqual({
      clientSupported: ['2026-07-28'],
      serverSupported: ['2030-01-01'],
    });
    expect((error as Error).cause).toBeInstanceOf(UnsupportedProtocolVersionError);
  });

  it('a DiscoverResult without our version switches to a shared one, or falls back when only a legacy one is shared', async () => {
    const h = hooks({ discover: [{ supportedVersions: ['2026-07-28'], capabilities: {} }] });
    expect(await negotiateEra(settings({ modernVersions: ['2027-01-01', '2026-07-28'] }), h)).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
    });
    expect(h.calls).toHaveLength(1);
    const legacy = hooks({
      discover: [{ supportedVersions: ['2025-11-25'], capabilities: {} }],
      initialize: [HANDSHAKE],
    });
    expect((await negotiateEra(settings(), legacy)).era).toBe('legacy');
  });

  it('a remembered legacy server gets initialize at once', async () => {
    const s = settings({ memory: new Map<string, Era>([['node server.js', 'legacy']]) });
    const h = hooks({ initialize: [HANDSHAKE] });
    expect((await negotiateEra(s, h)).era).toBe('legacy');
    expect(h.calls).toEqual([{ initialize: true }]);
  });

  it('a remembered verdict that fails is forgotten, the server probed again, and the new verdict kept', async () => {
    const s = settings({ memory: new Map<string, Era>([['node server.js', 'legacy']]) });
    const h = hooks({
      initialize: [new RpcError({ code: -32601, message: 'Method not found' }, 'initialize')],
      discover: [DISCOVERY],
    });
    expect((await negotiateEra(s, h)).era).toBe('modern');
    expect(h.calls).toEqual([{ initialize: true }, { discover: '2026-07-28', probeTimeoutMs: 5000 }]);
    expect(s.memory.get('node server.js')).toBe('modern');
  });

  it('a remembered modern server is asked with the normal timeout', async () => {
    const h = hooks({ discover: [DISCOVERY] });
    await negotiateEra(settings({ memory: new Map<string, Era>([['node server.js', 'modern']]) }), h);
    expect(h.calls).toEqual([{ discover: '2026-07-28', probeTimeoutMs: undefined }]);
  });

  it('a probe that timed out and an initialize refused with an error: probed once more with the normal timeout (a slow modern server)', async () => {
    const h = hooks({
      discover: [timeout(), DISCOVERY],
      initialize: [new RpcError({ code: -32601, message: 'Method not found' }, 'initialize')],
    });
    expect((await negotiateEra(settings(), h)).era).toBe('modern');
    expect(h.calls).toEqual([
      { discover: '2026-07-28', probeTimeoutMs: 5000 },
      { initialize: true },
      { discover: '2026-07-28', probeTimeoutMs: undefined },
    ]);
  });

  it('a probe that failed without a probe timeout (HTTP) and an initialize refused with -32020: modern, probed once more', async () => {
    const headerMismatch = new RpcError({ code: -32020, message: 'Mcp-Method header required' }, 'initialize', 400);
    const h = hooks({ discover: [timeout(), DISCOVERY], initialize: [headerMismatch] });
    expect(await negotiateEra(settings({ probeTimeoutMs: undefined }), h)).toMatchObject({ era: 'modern' });
    expect(h.calls).toEqual([
      { discover: '2026-07-28', probeTimeoutMs: undefined },
      { initialize: true },
      { discover: '2026-07-28', probeTimeoutMs: undefined },
    ]);
  });

  it('an initialize refused with a legacy-looking error after an HTTP probe timeout: no second probe', async () => {
    const h = hooks({
      discover: [timeout()],
      initialize: [new RpcError({ code: -32603, message: 'broken' }, 'initialize')],
    });
    const error = await negotiateEra(settings({ probeTimeoutMs: undefined }), h).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EraDetectionError);
    expect(h.calls).toEqual([{ discover: '2026-07-28', probeTimeoutMs: undefined }, { initialize: true }]);
  });

  it('a probe that timed out and an initialize answered with something else: probed once more too', async () => {
    const malformed = new ProtocolError('result has no protocolVersion string', { method: 'initialize', value: {} });
    const h = hooks({ discover: [timeout(), DISCOVERY], initialize: [malformed] });
    expect((await negotiateEra(settings(), h)).era).toBe('modern');
  });

  it('without a probe timeout (HTTP) the probe is sent with the normal timeouts', async () => {
    const h = hooks({ discover: [DISCOVERY] });
    await negotiateEra(settings({ probeTimeoutMs: undefined }), h);
    expect(h.calls).toEqual([{ discover: '2026-07-28', probeTimeoutMs: undefined }]);
  });

  it('neither era works: EraDetectionError with both failures', async () => {
    const h = hooks({
      discover: [new RpcError({ code: -32601, message: 'nope' }, 'server/discover')],
      initialize: [new RpcError({ code: -32603, message: 'broken' }, 'initialize')],
    });
    const error = await negotiateEra(settings(), h).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EraDetectionError);
    expect((error as EraDetectionError).data).toMatchObject({
      serverIdentity: 'node server.js',
      probe: { code: -32601 },
      fallback: { code: -32603, message: 'broken' },
    });
  });

  it('a result that is not a DiscoverResult: initialize; if that fails too, the ProtocolError is thrown', async () => {
    const malformed = new ProtocolError('result.supportedVersions must be an array', {
      method: 'server/discover',
      value: {},
    });
    expect((await negotiateEra(settings(), hooks({ discover: [malformed], initialize: [HANDSHAKE] }))).era).toBe(
      'legacy',
    );
    const refused = new RpcError({ code: -32601, message: 'Method not found' }, 'initialize');
    await expect(negotiateEra(settings(), hooks({ discover: [malformed], initialize: [refused] }))).rejects.toBe(
      malformed,
    );
  });

  it('fatal errors end it at once: a closed connection during the probe or the fallback', async () => {
    const closed = new ConnectionClosedError('gone', { reason: 'process exited with code 1' });
    await expect(negotiateEra(settings(), hooks({ discover: [closed] }))).rejects.toBe(closed);
    await expect(negotiateEra(settings(), hooks({ discover: [timeout()], initialize: [closed] }))).rejects.toBe(closed);
  });

  it('era "modern" never falls back; era "legacy" never probes; neither touches the memory', async () => {
    const memory = new Map<string, Era>();
    const s = settings({ era: 'modern', memory });
    const refused = new RpcError({ code: -32601, message: 'Method not found' }, 'server/discover');
    await expect(negotiateEra(s, hooks({ discover: [refused] }))).rejects.toBe(refused);
    const legacy = hooks({ initialize: [HANDSHAKE] });
    expect((await negotiateEra(settings({ era: 'legacy', memory: s.memory }), legacy)).era).toBe('legacy');
    expect(legacy.calls).toEqual([{ initialize: true }]);
    expect(memory.size).toBe(0);
  });

  it('era "modern": -32022 still leads to one retry with a supported version', async () => {
    const h = hooks({ discover: [unsupported(['2026-07-28']), DISCOVERY] });
    expect(
      await negotiateEra(settings({ era: 'modern', modernVersions: ['2027-01-01', '2026-07-28'] }), h),
    ).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  });
});
