// The floor client: the cheapest correct JSON-RPC client over a child's stdio that we know how to
// write. Newline-delimited JSON, a pending map, no validation of anything. It still sends what
// the 2026-07-28 wire requires of every request: the three `_meta` keys (protocol version, client
// capabilities, client info), serialised once at start and spliced into each request's bytes
// (only the params are stringified per request). Lines sent in one turn go out in one
// `stdin.write` (from a microtask), as mcp-live's stdio transport does: at 32 in flight that is
// one write, not 32. Its "cache" is a Map with an expiry time, in two flavours: `shared` hands
// back the stored object itself, `copy` keeps the JSON text and parses a fresh copy per hit.
import { spawn } from 'node:child_process';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-floor', version: '1.0.0' },
};
/** `,"_meta":{…}}`: closes a request's params object with the `_meta` keys, serialised once. */
const META_TAIL = `,"_meta":${JSON.stringify(META)}}`;

/**
 * The bytes of a request line: `params` stringified (without `_meta`) and the `_meta` tail
 * spliced in before its closing brace. `method` is a bench constant (no escaping needed).
 */
export function requestLine(id, method, params) {
  const json = JSON.stringify(params);
  const body = json.length === 2 ? `{${META_TAIL.slice(1)}` : json.slice(0, -1) + META_TAIL;
  return `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${body}}\n`;
}

export class FloorClient {
  constructor({ command, args, env, bound = Infinity }) {
    this.bound = bound;
    this.command = command;
    this.args = args;
    this.env = env;
    this.nextId = 1;
    this.pending = new Map();
    this.rest = '';
    this.shared = new Map();
    this.copies = new Map();
    /** Lines not written yet: everything sent in this turn, written by one microtask. */
    this.out = '';
    this.flush = () => {
      const data = this.out;
      this.out = '';
      this.child.stdin.write(data);
    };
  }

  async connect() {
    const child = spawn(this.command, this.args, { stdio: ['pipe', 'pipe', 'inherit'], env: this.env });
    this.child = child;
    await new Promise((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => this.onData(chunk));
    child.on('exit', () => {
      for (const { reject } of this.pending.values()) reject(new Error('server exited'));
      this.pending.clear();
    });
    return this.request('server/discover', {});
  }

  onData(chunk) {
    const text = this.rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const message = JSON.parse(text.slice(start, nl));
      start = nl + 1;
      const entry = this.pending.get(message.id);
      if (entry === undefined) continue;
      this.pending.delete(message.id);
      if (message.error !== undefined) entry.reject(Object.assign(new Error(message.error.message), message.error));
      else entry.resolve(message.result);
    }
    this.rest = text.slice(start);
  }

  request(method, params) {
    const id = this.nextId++;
    if (this.out === '') queueMicrotask(this.flush);
    this.out += requestLine(id, method, params);
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  callTool(name, args) {
    return this.request('tools/call', { name, arguments: args });
  }

  listTools() {
    return this.request('tools/list', {});
  }

  async listAll(method, key) {
    const items = [];
    let cursor;
    do {
      const page = await this.request(method, cursor === undefined ? {} : { cursor });
      for (const item of page[key]) items.push(item);
      cursor = page.nextCursor;
    } while (cursor !== undefined && cursor !== null);
    return items;
  }

  /** resources/read through the Map cache: the stored object itself on a hit. */
  async readShared(uri) {
    const hit = this.shared.get(uri);
    if (hit !== undefined && performance.now() < hit.expiresAt) return hit.value;
    const value = await this.request('resources/read', { uri });
    this.shared.set(uri, { value, expiresAt: performance.now() + (value.ttlMs ?? 0) });
    if (this.shared.size > this.bound) this.shared.delete(this.shared.keys().next().value); // oldest first
    return value;
  }

  /** resources/read through the text cache: a freshly parsed copy on a hit. */
  async readCopy(uri) {
    const hit = this.copies.get(uri);
    if (hit !== undefined && performance.now() < hit.expiresAt) return JSON.parse(hit.json);
    const value = await this.request('resources/read', { uri });
    this.copies.set(uri, { json: JSON.stringify(value), expiresAt: performance.now() + (value.ttlMs ?? 0) });
    return value;
  }

  readUncached(uri) {
    return this.request('resources/read', { uri });
  }

  close() {
    const child = this.child;
    if (child === undefined || child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end();
    });
  }
}
