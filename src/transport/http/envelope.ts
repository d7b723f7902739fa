/**
 * The envelope of a 2026-07-28 Streamable HTTP POST (basic/transports/streamable-http): the
 * headers that carry what routers and gateways read without parsing the body. Runtime-neutral.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { isObject, type JsonObject } from '../../wire/messages.js';
import { MetaKey } from '../../wire/protocol.js';
import { encodeHeaderValue, isPlainHeaderValue } from './headerValue.js';
import { normalizeHeaders } from './stack.js';

/** Headers of every POST, under the protocol ones. */
export const POST_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
});
/**
 * Which `params` field the `Mcp-Name` header mirrors, per method (spec: basic/transports,
 * Standard Request Headers; ext-tasks, Streamable HTTP: Routing Headers for `tasks/*`).
 */
const MCP_NAME_SOURCE: Readonly<Record<string, string>> = Object.freeze({
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});

/**
 * The headers of a POST of `method` with `params`: `staticHeaders` and `extra` (the
 * `Mcp-Param-*` headers, checked here), under `Accept`, `Content-Type`, `MCP-Protocol-Version`
 * (from `_meta`), `Mcp-Method` and `Mcp-Name` (`params.name` of `tools/call` and `prompts/get`,
 * `params.uri` of `resources/read`, `params.taskId` of `tasks/get`, `tasks/update` and
 * `tasks/cancel`; Base64-wrapped when not plain ASCII). `postHeaders` is
 * `staticHeaders` under {@link POST_HEADERS}, made once. Names are lower case.
 * @throws InvalidArgumentError (-32602) for an `extra` header, a protocol version or a method
 *   that cannot be sent as a header value.
 */
export function envelopeHeaders(
  method: string,
  params: JsonObject | undefined,
  extra: Readonly<Record<string, string>> | undefined,
  staticHeaders: Readonly<Record<string, string>>,
  postHeaders: Readonly<Record<string, string>>,
): Record<string, string> {
  let headers: Record<string, string>;
  if (extra === undefined) headers = { ...postHeaders };
  else {
    const checked = normalizeHeaders(extra, { ...staticHeaders });
    if (checked.invalid !== undefined) {
      throw new InvalidArgumentError(
        `headers[${JSON.stringify(checked.invalid)}]`,
        extra[checked.invalid],
        'not a valid HTTP header name and value',
      );
    }
    headers = Object.assign(checked.headers, POST_HEADERS);
  }
  const rawMeta = params?.['_meta'];
  const meta = isObject(rawMeta) ? rawMeta : undefined;
  const version = meta?.[MetaKey.protocolVersion];
  if (typeof version === 'string') {
    if (!isPlainHeaderValue(version) || version === '')
      throw new InvalidArgumentError(
        '_meta.protocolVersion',
        version,
        'cannot be sent as the MCP-Protocol-Version header',
      );
    headers['mcp-protocol-version'] = version;
  }
  if (!isPlainHeaderValue(method) || method === '')
    throw new InvalidArgumentError('method', method, 'cannot be sent as the Mcp-Method header (visible ASCII only)');
  headers['mcp-method'] = method;
  const source = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined;
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}
