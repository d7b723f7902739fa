/**
 * The local error codes mean one thing: none equals a code the spec (either revision), an
 * extension mcp-live implements, or the official SDKs give another meaning, and the 0.2 -> 0.3
 * move of the local codes (docs/errors.md, "Codes before 0.3") is pinned.
 *
 * The spec's codes are listed here as facts from the revisions' schema.ts (shared/spec): the
 * 2026-07-28 schema mints -32020 (HeaderMismatch), -32021 (MissingRequiredClientCapability) and
 * -32022 (UnsupportedProtocolVersion); 2025-11-25 mints -32042 (URLElicitationRequiredError) and
 * its docs -32002 (resource not found). The Tasks, Skills, Apps and auth extensions use the
 * JSON-RPC codes only. The official SDKs' enums are read from their installed packages.
 */
import { ErrorCode as V1ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode, type ErrorCodeName } from '../../src/index.js';

const JSON_RPC: Record<number, string> = {
  [-32700]: 'ParseError',
  [-32600]: 'InvalidRequest',
  [-32601]: 'MethodNotFound',
  [-32602]: 'InvalidParams',
  [-32603]: 'InternalError',
};
const SPEC_2026_07_28: Record<number, string> = {
  ...JSON_RPC,
  [-32020]: 'HeaderMismatch',
  [-32021]: 'MissingRequiredClientCapability',
  [-32022]: 'UnsupportedProtocolVersion',
};
const SPEC_2025_11_25: Record<number, string> = {
  ...JSON_RPC,
  [-32002]: 'ResourceNotFound',
  [-32042]: 'UrlElicitationRequired',
};

/** A numeric TypeScript enum as code -> name (its reverse mapping holds both directions). */
function enumCodes(enumObject: object): Record<number, string> {
  return Object.fromEntries(
    Object.entries(enumObject)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([name, code]) => [code, name]),
  );
}

/** The codes mcp-live makes itself and that mean what the official SDK's code of that number means. */
const SHARED_WITH_SDK: Partial<Record<ErrorCodeName, string>> = {
  ConnectionClosed: 'ConnectionClosed',
  RequestTimeout: 'RequestTimeout',
};
/** Wire codes mcp-live also makes locally, with the spec's meaning (a message that breaks the rules, a bad argument). */
const WIRE_ALSO_LOCAL = new Set<ErrorCodeName>([
  'ParseError',
  'InvalidRequest',
  'MethodNotFound',
  'InvalidParams',
  'InternalError',
  'HeaderMismatch',
  'MissingRequiredClientCapability',
  'UnsupportedProtocolVersion',
  'ResourceNotFoundLegacy',
  'UrlElicitationRequired',
]);

const entries = Object.entries(ErrorCode) as [ErrorCodeName, number][];
const local = entries.filter(([name]) => !WIRE_ALSO_LOCAL.has(name));
/** Local codes minted after the 0.2 -> 0.3 move: they never had a -320xx number. */
const MINTED_SINCE_THE_MOVE = new Set<ErrorCodeName>([
  'ToolResultFailed',
  // The Triggers & Events extension's (issue 46).
  'EventsUnsupported',
  'NoCompatibleDeliveryMode',
  'EventSubscriptionEnded',
]);
const moved = local.filter(([name, code]) => code <= -33000 && !MINTED_SINCE_THE_MOVE.has(name));

describe('ErrorCode', () => {
  it('has one name per code', () => {
    const codes = entries.map(([, code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('names every spec code by the spec name', () => {
    const named = (code: number) => entries.find(([, value]) => value === code)?.[0];
    for (const [code, name] of Object.entries({ ...SPEC_2026_07_28, ...SPEC_2025_11_25 })) {
      expect(named(Number(code)), `spec code ${code}`).toBe(
        name === 'ResourceNotFound' ? 'ResourceNotFoundLegacy' : name,
      );
    }
  });

  it('gives no local code a number the spec, either revision, or the official SDKs use for something else', () => {
    const others = [SPEC_2026_07_28, SPEC_2025_11_25, enumCodes(V1ErrorCode), enumCodes(ProtocolErrorCode)];
    const clashes = local.flatMap(([name, code]) =>
      others
        .map((table) => table[code])
        .filter((other): other is string => other !== undefined && other !== SHARED_WITH_SDK[name])
        .map((other) => `${name} ${code} = ${other}`),
    );
    expect(clashes).toEqual([]);
    // -32000 and -32001 are the v1 SDK's, with the meaning mcp-live gives them.
    expect(enumCodes(V1ErrorCode)[ErrorCode.ConnectionClosed]).toBe('ConnectionClosed');
    expect(enumCodes(V1ErrorCode)[ErrorCode.RequestTimeout]).toBe('RequestTimeout');
    expect(enumCodes(V1ErrorCode)[ErrorCode.UrlElicitationRequired]).toBe('UrlElicitationRequired');
  });

  it('keeps local codes out of the JSON-RPC reserved range, but for the SDK-shared -32000/-32001 (and LSP-style -32800)', () => {
    const outside = local.filter(
      ([name, code]) => code >= -32768 && code <= -32000 && SHARED_WITH_SDK[name] === undefined,
    );
    expect(outside).toEqual([]);
    for (const [name, code] of local) {
      if (SHARED_WITH_SDK[name] !== undefined || name === 'RequestCancelled') continue;
      expect(code, name).toBeGreaterThanOrEqual(-33099);
      expect(code, name).toBeLessThanOrEqual(-33000);
    }
    expect(ErrorCode.RequestCancelled).toBe(-32800);
  });

  it('moved every 0.2 local code from -320xx to -330xx (docs/errors.md lists the same)', () => {
    expect(Object.fromEntries(moved.map(([name, code]) => [name, code + 1000]))).toEqual({
      InputRequired: -32003,
      PaginationFailed: -32004,
      CacheMiss: -32005,
      InputRequiredRoundsExceeded: -32006,
      InputRequestFailed: -32007,
      SubscriptionClosed: -32008,
      UnmatchedNotification: -32009,
      Http: -32010,
      HttpAuth: -32011,
      StreamBroken: -32012,
      WebSocketClosed: -32013,
      SessionExpired: -32014,
      EraDetectionFailed: -32015,
      ToolOutputInvalid: -32016,
      AuthorizationFailed: -32017,
      InsufficientScope: -32018,
      AuthorizationRequired: -32019,
      UriTemplateAmbiguous: -32026,
      CacheStoreFailed: -32030,
      TaskExpired: -32031,
      TaskStoreFailed: -32032,
      TaskAbandoned: -32033,
      ClientState: -32040,
      MiddlewareFailed: -32041,
      ModuleLoadFailed: -32042,
      HostConfigInvalid: -32050,
      HostRouting: -32051,
      ToolApprovalDenied: -32052,
      SlashCommandInvalid: -32055,
      SkillVerificationFailed: -32060,
      SkillEntryInvalid: -32061,
      SkillsUnsupported: -32062,
      HostStateFailed: -32063,
      AppResourceInvalid: -32070,
      AppToolCallDenied: -32071,
    });
  });

  it("matches docs/errors.md's table of moved codes row for row", () => {
    const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...docs.matchAll(/^\| (-320\d\d) \| (-330\d\d) \| `(\w+)` \|$/gm)].map(([, before, now, name]) => [
      name,
      Number(now),
      Number(before),
    ]);
    expect(rows.length).toBe(moved.length);
    for (const [name, now, before] of rows) {
      expect(ErrorCode[name as ErrorCodeName], String(name)).toBe(now);
      expect(Number(now) + 1000).toBe(before);
    }
  });
});
