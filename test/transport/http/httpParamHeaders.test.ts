/**
 * `x-mcp-header` (spec 2026-07-28 server/tools and streamable-http "Custom Headers from Tool
 * Parameters") and the value encoding shared with `Mcp-Name`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeHeaderValue, isPlainHeaderValue } from '../../../src/transport/http/headerValue.js';
import {
  extractParamHeaderMap,
  paramHeadersFor,
  paramHeaderText,
  screenToolHeaders,
} from '../../../src/transport/http/mcpParamHeaders.js';
import { ToolHeaderRegistry } from '../../../src/transport/http/toolHeaderRegistry.js';
import { StreamableHttpTransport } from '../../../src/transport/http/streamableHttp.js';
import { HttpFake, sendJson } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';

function tool(name: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { name, inputSchema: { type: 'object', properties, ...extra } };
}

describe('header value encoding', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['tab\there', '=?base64?dGFiCWhlcmU=?='],
    ['', ''],
    ['has inner spaces', 'has inner spaces'],
    ['file:///path/to/file%20name.txt', 'file:///path/to/file%20name.txt'],
  ])('%j → %s (the spec table and its neighbours)', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
    // Whatever comes out is a legal header value for fetch.
    expect(() => new Headers({ 'Mcp-Param-X': encoded })).not.toThrow();
  });

  it('treats only visible ASCII and inner spaces as plain', () => {
    expect(isPlainHeaderValue('a b')).toBe(true);
    expect(isPlainHeaderValue('café')).toBe(false);
    expect(isPlainHeaderValue('\u007f')).toBe(false);
    expect(isPlainHeaderValue('=?base64?')).toBe(true);
    expect(isPlainHeaderValue('=?base64?=')).toBe(false);
  });
});

describe('extractParamHeaderMap', () => {
  it('maps annotated primitive parameters, nested through properties, in schema order', () => {
    const map = extractParamHeaderMap(
      tool('execute_sql', {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        query: { type: 'string' },
        opts: {
          type: 'object',
          properties: {
            tenant: { type: 'integer', 'x-mcp-header': 'Tenant-Id' },
            dry: { type: ['boolean', 'null'], 'x-mcp-header': 'Dry' },
          },
        },
      }),
    );
    expect(map).toEqual([
      { name: 'Region', header: 'Mcp-Param-Region', path: ['region'] },
      { name: 'Tenant-Id', header: 'Mcp-Param-Tenant-Id', path: ['opts', 'tenant'] },
      { name: 'Dry', header: 'Mcp-Param-Dry', path: ['opts', 'dry'] },
    ]);
  });

  it('a tool without annotations (or without a schema) has an empty map', () => {
    expect(extractParamHeaderMap(tool('plain', { a: { type: 'string' } }))).toEqual([]);
    expect(extractParamHeaderMap({ name: 'none' })).toEqual([]);
    // A property literally named "x-mcp-header" is not an annotation.
    expect(extractParamHeaderMap(tool('named', { 'x-mcp-header': { type: 'string' } }))).toEqual([]);
  });

  it.each([
    ['empty', { a: { type: 'string', 'x-mcp-header': '' } }, /is empty/],
    ['space', { a: { type: 'string', 'x-mcp-header': 'My Header' } }, /not an HTTP field-name token/],
    ['colon', { a: { type: 'string', 'x-mcp-header': 'A:B' } }, /not an HTTP field-name token/],
    ['non-ASCII', { a: { type: 'string', 'x-mcp-header': 'Régión' } }, /not an HTTP field-name token/],
    ['control character', { a: { type: 'string', 'x-mcp-header': 'A\r\nB' } }, /not an HTTP field-name token/],
    ['not a string', { a: { type: 'string', 'x-mcp-header': 7 } }, /not a string/],
    [
      'duplicate, case-insensitively',
      { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } },
      /duplicates/,
    ],
    ['object parameter', { a: { type: 'object', 'x-mcp-header': 'Obj' } }, /only string, integer and boolean/],
    [
      'array parameter',
      { a: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Arr' } },
      /only string, integer and boolean/,
    ],
    ['null parameter', { a: { type: 'null', 'x-mcp-header': 'Nil' } }, /only string, integer and boolean/],
    ['number parameter', { a: { type: 'number', 'x-mcp-header': 'Num' } }, /only string, integer and boolean/],
    ['no type', { a: { 'x-mcp-header': 'Any' } }, /only string, integer and boolean/],
    [
      'under items',
      { a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'B' } } } } },
      /under "items"/,
    ],
    ['under anyOf', { a: { anyOf: [{ type: 'string', 'x-mcp-header': 'A' }, { type: 'integer' }] } }, /under "anyOf"/],
    [
      'under additionalProperties',
      { a: { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'A' } } },
      /under "additionalProperties"/,
    ],
  ])('rejects a tool whose annotation is invalid: %s', (_name, properties, reason) => {
    const result = extractParamHeaderMap(tool('bad', properties));
    expect(result).toEqual({ error: expect.stringMatching(reason) });
  });

  it('rejects annotations in $defs or on the root', () => {
    expect(
      extractParamHeaderMap(
        tool('defs', { a: { $ref: '#/$defs/R' } }, { $defs: { R: { type: 'string', 'x-mcp-header': 'R' } } }),
      ),
    ).toEqual({
      error: expect.stringMatching(/under "\$defs"/),
    });
    expect(extractParamHeaderMap({ name: 'root', inputSchema: { type: 'object', 'x-mcp-header': 'Root' } })).toEqual({
      error: expect.stringMatching(/root/),
    });
  });
});

describe('paramHeadersFor', () => {
  const map = extractParamHeaderMap(
    tool('t', {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
      method: { type: 'string', 'x-mcp-header': 'Method' },
      nested: { type: 'object', properties: { id: { type: 'string', 'x-mcp-header': 'Nested-Id' } } },
    }),
  );
  if ('error' in map) throw new Error(map.error);

  it('converts and encodes values, and omits absent and null ones', () => {
    expect(
      paramHeadersFor(map, {
        region: 'us-west1',
        count: -7,
        verbose: false,
        greeting: 'Hello, 世界',
        method: 'x',
        nested: { id: ' a ' },
        query: 'SELECT 1',
      }),
    ).toEqual({
      'Mcp-Param-Region': 'us-west1',
      'Mcp-Param-Count': '-7',
      'Mcp-Param-Verbose': 'false',
      'Mcp-Param-Greeting': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'Mcp-Param-Method': 'x',
      'Mcp-Param-Nested-Id': '=?base64?IGEg?=',
    });
    expect(paramHeadersFor(map, { region: null, verbose: null, nested: null })).toEqual({});
    expect(paramHeadersFor(map, {})).toEqual({});
    expect(paramHeadersFor(map, undefined)).toEqual({});
    expect(paramHeadersFor(map, { region: { not: 'primitive' }, count: 42, verbose: true })).toEqual({
      'Mcp-Param-Count': '42',
      'Mcp-Param-Verbose': 'true',
    });
  });

  it('converts single values by type', () => {
    expect(paramHeaderText('s')).toBe('s');
    expect(paramHeaderText(42)).toBe('42');
    expect(paramHeaderText(true)).toBe('true');
    expect(paramHeaderText(null)).toBeUndefined();
    expect(paramHeaderText([1])).toBeUndefined();
    expect(paramHeaderText(Number.NaN)).toBeUndefined();
  });
});

describe('screenToolHeaders', () => {
  it('keeps valid tools in order, returns their maps, and names each rejected tool with its reason', () => {
    const tools = [
      tool('valid_tool', { region: { type: 'string', 'x-mcp-header': 'Region' } }),
      tool('plain_tool', { q: { type: 'string' } }),
      tool('empty_header', { a: { type: 'string', 'x-mcp-header': '' } }),
      tool('dup_header', { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } }),
    ];
    const screened = screenToolHeaders(tools);
    expect(screened.tools.map((t) => t.name)).toEqual(['valid_tool', 'plain_tool']);
    expect([...screened.maps.keys()]).toEqual(['valid_tool']);
    expect(screened.rejected).toEqual([
      { tool: 'empty_header', reason: expect.stringContaining('empty') },
      { tool: 'dup_header', reason: expect.stringContaining('duplicates') },
    ]);
  });
});

describe('Mcp-Param headers on the wire', () => {
  let fake: HttpFake | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  it('sends the headers a tools/call hands the transport, next to the standard ones', async () => {
    fake = await HttpFake.start((req, res) =>
      sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { content: [] } }),
    );
    const transport = new StreamableHttpTransport(fake.url);
    await startRecording(transport);
    const args = { region: 'eu', greeting: 'Hello, 世界', verbose: null };
    const map = extractParamHeaderMap(
      tool('t', {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
        verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      }),
    );
    if ('error' in map) throw new Error(map.error);
    await transport.send(request(1, 'tools/call', { name: 't', arguments: args }), {
      headers: paramHeadersFor(map, args),
    });
    const headers = fake.requests[0]!.headers;
    expect(headers['mcp-param-region']).toBe('eu');
    expect(headers['mcp-param-greeting']).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(headers['mcp-param-verbose']).toBeUndefined();
    expect(headers['mcp-name']).toBe('t');
    await transport.close();
  });
});

describe('ToolHeaderRegistry', () => {
  it('remembers maps and idempotency hints of kept tools, and forgets rejected or cleared ones', async () => {
    const registry = new ToolHeaderRegistry();
    const page = [
      {
        ...tool('read', { region: { type: 'string', 'x-mcp-header': 'Region' } }),
        annotations: { readOnlyHint: true },
      },
      { ...tool('write', { q: { type: 'string' } }), annotations: { destructiveHint: true } },
      tool('broken', { a: { type: 'object', 'x-mcp-header': 'A' } }),
    ];
    const { tools, rejected } = registry.screen(page);
    expect(tools.map((t) => t.name)).toEqual(['read', 'write']);
    expect(rejected.map((r) => r.tool)).toEqual(['broken']);
    expect(registry.headersFor('read', { region: 'eu' })).toEqual({ 'Mcp-Param-Region': 'eu' });
    expect(registry.headersFor('write', { q: 'x' })).toBeUndefined();
    expect(registry.headersFor('broken', {})).toBeUndefined();
    expect(registry.isIdempotent('read')).toBe(true);
    expect(registry.isIdempotent('write')).toBe(false);
    expect(registry.isIdempotent('unknown')).toBeUndefined();
    registry.screen([tool('read', { region: { type: 'string' } })]);
    expect(registry.headersFor('read', { region: 'eu' })).toBeUndefined();
    expect(registry.isIdempotent('read')).toBe(false);
    registry.clear();
    expect(registry.isIdempotent('write')).toBeUndefined();
  });
});
