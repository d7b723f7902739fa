// The HTTP floor client (W5): the least a Streamable HTTP client of 2026-07-28 must do. One POST
// per request on node:http with a keep-alive Agent, the protocol headers (Accept, Content-Type,
// MCP-Protocol-Version, Mcp-Method, Mcp-Name for tools/call) and the mandatory `_meta` keys; the
// response body (JSON only: no SSE, no validation) collected as text and parsed once. The `_meta`
// keys are serialised once and spliced into each body, as the stdio floor does (floor-client.mjs);
// `req.end(body)` hands node:http the headers and the body together, so each request leaves in
// one write.
import { Agent, request as httpRequest } from 'node:http';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-floor-http', version: '1.0.0' },
};
const META_TAIL = `,"_meta":${JSON.stringify(META)}}`;

export class FloorHttpClient {
  constructor({ url }) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.path = u.pathname;
    // Enough sockets for 32 in flight, each kept open between requests.
    this.agent = new Agent({ keepAlive: true, maxSockets: 64 });
    this.nextId = 1;
  }

  connect() {
    return this.request('server/discover', {});
  }

  request(method, params) {
    const id = this.nextId++;
    const json = JSON.stringify(params);
    const spliced = json.length === 2 ? `{${META_TAIL.slice(1)}` : json.slice(0, -1) + META_TAIL;
    const body = `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${spliced}}`;
    const headers = {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
    };
    if (typeof params.name === 'string') headers['Mcp-Name'] = params.name;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { agent: this.agent, host: this.host, port: this.port, path: this.path, method: 'POST', headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
            const message = JSON.parse(text);
            if (message.error !== undefined) reject(Object.assign(new Error(message.error.message), message.error));
            else resolve(message.result);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  callTool(name, args) {
    return this.request('tools/call', { name, arguments: args });
  }

  listTools() {
    return this.request('tools/list', {});
  }

  close() {
    this.agent.destroy();
    return Promise.resolve();
  }
}
