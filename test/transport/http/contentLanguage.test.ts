/**
 * SEP-2792 (a draft), the client's rule on Streamable HTTP: a JSON response whose
 * `Content-Language` header and `_meta` contentLanguage (of the result, or of the error's
 * `data`) disagree after trimming is malformed, and is not delivered. A scripted server on
 * 127.0.0.1 answers `tools/list` with the header and `_meta` each test gives.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../../src/client/client.js';
import { ProtocolError } from '../../../src/errors/errors.js';
import { contentLanguageMismatch } from '../../../src/transport/http/languageHeaders.js';
import { StreamableHttpTransport } from '../../../src/transport/http/streamableHttp.js';
import { contentLanguage } from '../../../src/wire/language.js';
import { answerDiscover, HttpFake, sendJson, sseEvent, startSse } from '../../fakes/httpFake.js';

const KEY = 'io.modelcontextprotocol/contentLanguage';

/** What the next `tools/list` answer carries. */
interface Script {
  header?: string;
  meta?: string;
  /** Answer with a JSON-RPC error (`data._meta`) instead of a result, with this HTTP status. */
  errorStatus?: number;
  sse?: boolean;
}

let script: Script = {};
let server: HttpFake;

beforeAll(async () => {
  server = await HttpFake.start((request, res) => {
    if (answerDiscover(request, res)) return;
    const { id } = request.json;
    const meta = script.meta === undefined ? undefined : { _meta: { [KEY]: script.meta } };
    const headers: Record<string, string> = script.header === undefined ? {} : { 'Content-Language': script.header };
    if (script.errorStatus !== undefined) {
      const error = { code: -32602, message: 'Arguments invalides', ...(meta !== undefined && { data: meta }) };
      return sendJson(res, script.errorStatus, { jsonrpc: '2.0', id, error }, headers);
    }
    const result = { resultType: 'complete', tools: [{ name: 'add', inputSchema: { type: 'object' } }], ...meta };
    if (script.sse === true) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      startSse(res);
      res.end(sseEvent({ jsonrpc: '2.0', id, result }));
      return;
    }
    sendJson(res, 200, { jsonrpc: '2.0', id, result }, headers);
  });
});
afterAll(async () => {
  await server.close();
});

const open: McpClient[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
  script = {};
});

async function client(): Promise<McpClient> {
  const made = new McpClient({
    transport: new StreamableHttpTransport(server.url, { retry: false }),
    clientInfo: { name: 'lang', version: '1' },
    acceptLanguage: 'fr-CA,fr;q=0.9',
  });
  open.push(made);
  await made.connect();
  return made;
}

describe('Content-Language against _meta contentLanguage', () => {
  it.each<[string, Script]>([
    ['equal', { header: 'fr-CA', meta: 'fr-CA' }],
    ['equal once trimmed', { header: 'fr-CA, en', meta: ' fr-CA, en\t' }],
    ['the header only', { header: 'fr-CA' }],
    ['_meta only', { meta: 'fr-CA' }],
  ])('%s: the result is delivered', async (_name, given) => {
    const c = await client();
    script = given;
    const page = await c.listTools();
    expect(page.tools.map((tool) => tool.name)).toEqual(['add']);
    expect(contentLanguage(page)).toBe(given.meta);
  });

  it.each<[string, Script]>([
    ['another language', { header: 'fr-CA', meta: 'fr' }],
    ['another case (no normalisation)', { header: 'FR-ca', meta: 'fr-CA' }],
    ['another order', { header: 'en, fr', meta: 'fr, en' }],
  ])('%s: ProtocolError with both values, nothing delivered or cached', async (_name, given) => {
    const c = await client();
    script = given;
    const error: unknown = await c.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      name: 'ProtocolError',
      code: -32600,
      data: { method: 'tools/list', value: { header: given.header, meta: given.meta } },
    });
    // Nothing was kept: the next call asks the server again, and a well-formed answer goes through.
    const before = server.requests.length;
    script = { header: 'fr', meta: 'fr' };
    expect(contentLanguage(await c.listTools())).toBe('fr');
    expect(server.requests.length).toBe(before + 1);
  });

  it.each([200, 400])(
    'a JSON-RPC error (HTTP %i) whose data._meta disagrees with the header: ProtocolError',
    async (status) => {
      const c = await client();
      script = { header: 'de', meta: 'fr', errorStatus: status };
      const error: unknown = await c.listTools().catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ProtocolError', data: { value: { header: 'de', meta: 'fr' } } });
      // Agreeing, the server's own error comes through.
      script = { header: 'fr', meta: 'fr', errorStatus: status };
      expect(await c.listTools().catch((e: unknown) => e)).toMatchObject({ code: -32602 });
    },
  );

  it('an SSE response is not held to its header (the SEP lets a stream omit it; each message has its _meta)', async () => {
    const c = await client();
    script = { header: 'de', meta: 'fr', sse: true };
    expect(contentLanguage(await c.listTools())).toBe('fr');
  });
});

describe('contentLanguageMismatch', () => {
  it('compares after trimming spaces and tabs only', () => {
    const result = (meta: unknown) => ({ jsonrpc: '2.0', id: 1, result: { _meta: { [KEY]: meta } } });
    expect(contentLanguageMismatch(' en ', result('en'))).toBeUndefined();
    expect(contentLanguageMismatch('en', result('en-US'))).toEqual({ header: 'en', meta: 'en-US' });
    expect(contentLanguageMismatch('en,fr', result('en, fr'))).toEqual({ header: 'en,fr', meta: 'en, fr' });
    expect(contentLanguageMismatch(undefined, result('en'))).toBeUndefined();
    expect(contentLanguageMismatch('en', result(7))).toBeUndefined();
    expect(contentLanguageMismatch('en', 'not an object')).toBeUndefined();
  });
});
