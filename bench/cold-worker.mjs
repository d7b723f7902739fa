// W7, one cold start per process: import the client, spawn the server, connect, first tools/list.
// Prints one JSON line as soon as tools/list resolves, then closes and exits.
//
//   node bench/cold-worker.mjs <client> <server> [spawn-log-file]
//
// `sinceProcessStartMs` is performance.now() (ms since this process started, node bootstrap
// included); `cpuUs` is this process's user + system CPU up to that point.
const [kind, server, spawnLog] = process.argv.slice(2);
const { openClient } = await import('./clients.mjs');
const client = await openClient(kind, server, { spawnLog });
const { tools } = await client.listTools();
const sinceProcessStartMs = performance.now();
const cpu = process.cpuUsage();
if (tools.length !== 1) throw new Error(`expected 1 tool, got ${tools.length}`);
process.stdout.write(
  `${JSON.stringify({ client: kind, server, sinceProcessStartMs, cpuUs: cpu.user + cpu.system })}\n`,
);
await client.close();
process.exit(0);
