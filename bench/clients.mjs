// One adapter per client under test, all with the same shape, so the workloads are written once:
//
//   call()              tools/call echo {text: 'hello'}
//   listTools()         tools/list (first page; the bench server has one tool)
//   listAllWire()       resources/list, every page, bypassing the cache (measures the wire)
//   listAllCached()     resources/list, every page, through the client's cache
//   read(uri)           resources/read through the cache
//   readUncached(uri)   resources/read, bypassing the cache
//   close()
//
// mcp-live is imported from the built output (../dist), as a user would get it.
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FloorClient } from './floor-client.mjs';
import { FloorHttpClient } from './floor-http-client.mjs';

export const CLIENTS = ['mcp-live', 'official', 'floor'];
/** Extra clients of the HTTP workloads (W5): mcp-live on its runtime-neutral fetch path. */
export const HTTP_EXTRA_CLIENTS = ['mcp-live (fetch)'];
export const SERVERS = ['official', 'floor'];
export const ECHO_ARGS = { text: 'hello' };

export const SERVER_PATHS = {
  official: fileURLToPath(new URL('./server.mjs', import.meta.url)),
  floor: fileURLToPath(new URL('./floor-server.mjs', import.meta.url)),
};

/** The environment bench servers run with: enough for node, plus the spawn log. */
function serverEnv(spawnLog) {
  const env = {};
  for (const key of ['PATH', 'HOME', 'SYSTEMROOT', 'TMPDIR'])
    if (process.env[key] !== undefined) env[key] = process.env[key];
  if (spawnLog !== undefined) env.BENCH_SPAWN_LOG = spawnLog;
  return env;
}

/**
 * Opens one connected client of `kind` to a new server process of `server` kind.
 * `cacheEntries`: room in the client's response cache (W6 sets it).
 */
export async function openClient(
  kind,
  server,
  { spawnLog, cacheEntries = 20_000, floorCache = 'shared', http = false } = {},
) {
  if (http) return openHttpClient(kind, server, { spawnLog });
  const command = process.execPath;
  const args = [SERVER_PATHS[server]];
  const env = serverEnv(spawnLog);
  if (kind === 'mcp-live') return openLive({ command, args, env, cacheEntries });
  if (kind === 'official') return openOfficial({ command, args, env, cacheEntries });
  if (kind === 'floor') return openFloor({ command, args, env, floorCache, cacheEntries });
  throw new Error(`unknown client ${kind}`);
}

/**
 * Where mcp-live's built output is: `dist/`, or the snapshot of it that `run.mjs` takes at start
 * (BENCH_DIST), so that a rebuild in the same checkout during a run cannot pull it away.
 */
const distUrl = (file) => {
  const dist = process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url));
  return new URL(file, pathToFileURL(dist.endsWith('/') ? dist : `${dist}/`)).href;
};

async function openLive({ command, args, env, cacheEntries }) {
  const { McpClient, MemoryCacheStore } = await import(distUrl('index.js'));
  const { StdioTransport } = await import(distUrl('node.js'));
  const client = new McpClient({
    transport: new StdioTransport({ command, args, env, stderr: 'inherit' }),
    clientInfo: { name: 'bench-mcp-live', version: '1.0.0' },
    // The default store holds 5,000 entries; the heap workload caches 10,000 reads.
    cache: {
      store: new MemoryCacheStore({ maxEntries: cacheEntries, maxBytes: 1024 * 1024 * 1024 }),
      sharedStore: false,
    },
  });
  await client.connect();
  return {
    call: () => client.callTool('echo', ECHO_ARGS),
    listTools: () => client.listTools(),
    listAllWire: async () => (await client.listAllResources({ cacheMode: 'no-store' })).items.length,
    listAllCached: async () => (await client.listAllResources()).items.length,
    read: (uri) => client.readResource(uri),
    readUncached: (uri) => client.readResource(uri, { cacheMode: 'no-store' }),
    close: () => client.close(),
  };
}

async function openOfficial({ command, args, env, cacheEntries }) {
  const { Client, InMemoryResponseCacheStore } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const client = new Client(
    { name: 'bench-official', version: '1.0.0' },
    {
      // The 2026-07-28 wire: server/discover, then the per-request _meta envelope.
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      // Its response cache is on by default; a store with room for the heap workload.
      responseCacheStore: new InMemoryResponseCacheStore({ maxEntries: cacheEntries }),
      // The default cap (64 pages) is below the 100 pages of the bench list.
      listMaxPages: 0,
    },
  );
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'inherit' }));
  return {
    call: () => client.callTool({ name: 'echo', arguments: ECHO_ARGS }),
    listTools: () => client.listTools(),
    listAllWire: async () => (await client.listResources(undefined, { cacheMode: 'bypass' })).resources.length,
    listAllCached: async () => (await client.listResources()).resources.length,
    read: (uri) => client.readResource({ uri }),
    readUncached: (uri) => client.readResource({ uri }, { cacheMode: 'bypass' }),
    close: () => client.close(),
  };
}

async function openFloor({ command, args, env, floorCache, cacheEntries }) {
  const client = new FloorClient({ command, args, env, bound: cacheEntries });
  await client.connect();
  return {
    call: () => client.callTool('echo', ECHO_ARGS),
    listTools: () => client.listTools(),
    listAllWire: async () => (await client.listAll('resources/list', 'resources')).length,
    // The floor caches nothing but reads: a cached listing is the list it kept.
    listAllCached: async () => {
      if (client.list === undefined || performance.now() >= client.listExpiresAt) {
        client.list = await client.listAll('resources/list', 'resources');
        client.listExpiresAt = performance.now() + 600_000;
      }
      return client.list.length;
    },
    read: floorCache === 'copy' ? (uri) => client.readCopy(uri) : (uri) => client.readShared(uri),
    readCopy: (uri) => client.readCopy(uri),
    readUncached: (uri) => client.readUncached(uri),
    close: () => client.close(),
  };
}

/**
 * W5: one connected client of `kind` over Streamable HTTP to a new `server --http` child process
 * on 127.0.0.1 (its own server, as over stdio). Only call() and listTools() are measured over
 * HTTP. close() closes the client, then ends the server (its stdin).
 */
export async function openHttpClient(kind, server, { spawnLog } = {}) {
  const child = spawn(process.execPath, [SERVER_PATHS[server], '--http'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: serverEnv(spawnLog),
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${server} --http did not print its URL in 30 s`)), 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /MCP_URL=(\S+)\n/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${server} --http exited with ${code}`)));
  });
  const stopServer = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.stdin.end();
    });
  let adapter;
  try {
    adapter = await openHttpAdapter(kind, url);
  } catch (error) {
    await stopServer();
    throw error;
  }
  return {
    ...adapter,
    close: async () => {
      try {
        await adapter.close();
      } finally {
        await stopServer();
      }
    },
  };
}

async function openHttpAdapter(kind, url) {
  if (kind === 'mcp-live' || kind === 'mcp-live (fetch)') {
    // 'mcp-live': what a Node user gets from mcp-live/node (node:http); '(fetch)': the root entry's class.
    const { McpClient } = await import(distUrl('index.js'));
    const { StreamableHttpTransport } = await import(distUrl(kind === 'mcp-live' ? 'node.js' : 'index.js'));
    const client = new McpClient({
      transport: new StreamableHttpTransport(url),
      clientInfo: { name: 'bench-mcp-live', version: '1.0.0' },
    });
    await client.connect();
    return {
      call: () => client.callTool('echo', ECHO_ARGS),
      listTools: () => client.listTools(),
      close: () => client.close(),
    };
  }
  if (kind === 'official') {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client(
      { name: 'bench-official', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return {
      call: () => client.callTool({ name: 'echo', arguments: ECHO_ARGS }),
      listTools: () => client.listTools(),
      close: () => client.close(),
    };
  }
  if (kind === 'floor') {
    const client = new FloorHttpClient({ url });
    await client.connect();
    return {
      call: () => client.callTool('echo', ECHO_ARGS),
      listTools: () => client.listTools(),
      close: () => client.close(),
    };
  }
  throw new Error(`unknown client ${kind}`);
}
