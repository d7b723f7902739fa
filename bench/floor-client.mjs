// The floor client: a minimal hand-written JSON-RPC client over a child's stdio. Newline-
// delimited JSON, a pending map, no validation of anything. It still sends what the
// 2026-07-28 wire requires of every request: the three `_meta` keys (protocol version, client
// capabilities, client info). Its "cache" is a Map with an expiry time, in two flavours:
// `shared` hands back the stored object itself, `copy` keeps the JSON text and parses a fresh
// copy per hit.
import { spawn } from 'node:child_process';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-floor', version: '1.0.0' },
};

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
    params._meta = META;
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
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
