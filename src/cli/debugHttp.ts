/**
 * The CLI's Streamable HTTP transport: `mcp-live/node`'s (requests on `node:http`), with each
 * HTTP exchange written to the debug log under `--debug`, as `debugFetch` does on the fetch path.
 * `--debug` so watches the same path that runs without it.
 */
import type { DebugSink } from '../index.js';
import { StreamableHttpTransport, type NodeStreamableHttpTransportOptions } from '../node.js';
import { isSecretKey, redactText } from '../observability/debug.js';
import type { HttpStack } from '../transport/http/stack.js';

/** Response headers worth a debug line. */
const RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'www-authenticate', 'retry-after', 'location'] as const;

interface Options extends NodeStreamableHttpTransportOptions {
  debugSink?: DebugSink | undefined;
}

/** `mcp-live/node`'s StreamableHttpTransport; with `debugSink`, every exchange is logged there. */
export class CliHttpTransport extends StreamableHttpTransport {
  constructor(url: string, options: Options) {
    super(url, options);
  }

  protected override createStack(options: Options): HttpStack {
    const stack = super.createStack(options);
    const sink = options.debugSink;
    return sink === undefined ? stack : loggingStack(stack, sink);
  }
}

/** `stack` with one debug entry per exchange: method, URL and headers (credentials redacted), then status or failure. */
function loggingStack(stack: HttpStack, sink: DebugSink): HttpStack {
  const safely = (entry: Parameters<DebugSink>[0]): void => {
    try {
      sink(entry);
    } catch {
      // a debug sink must not break the exchange it reports
    }
  };
  return {
    async send(request) {
      const url = redactText(request.url);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        headers[name] = isSecretKey(name) ? '[redacted]' : redactText(value);
      const line = `${request.method} ${url} ${JSON.stringify(headers)}`;
      try {
        const response = await stack.send(request);
        const kept: Record<string, string> = {};
        for (const name of RESPONSE_HEADERS) {
          const value = response.header(name);
          if (value !== undefined) kept[name] = redactText(value);
        }
        const type = kept['content-type'] === undefined ? '' : ` ${kept['content-type']}`;
        safely({
          type: 'http',
          message: `${line} → ${response.status}${type}`,
          data: { method: request.method, url, headers, status: response.status, responseHeaders: kept },
        });
        return response;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const reason = `${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}${typeof code === 'string' ? ` (${code})` : ''}`;
        safely({
          type: 'http',
          message: `${line} failed: ${redactText(reason)}`,
          data: { method: request.method, url, headers, error: redactText(reason) },
        });
        throw error;
      }
    },
    abortAll: (reason) => stack.abortAll(reason),
    close: () => stack.close(),
  };
}
