#!/usr/bin/env node
// Captures the tool lists of the real servers the project installs into realTools.json, the
// fixture of the search evaluation (toolSearchEval.test.ts), so the evaluation is repeatable
// without starting seven processes:
//
//   node test/host/searchEval/captureTools.mjs
//
// Servers: @modelcontextprotocol/server-everything, server-filesystem (on an empty temporary
// folder), the example server (examples/server.ts, on the official @modelcontextprotocol/server),
// server-basic-vanillajs, server-basic-preact and server-system-monitor (each with --stdio).
// Connects with mcp-live itself (src/, bundled with esbuild into a temporary folder); writes each
// tool as its server listed it.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..', '..');
const require = createRequire(import.meta.url);
const published = (name, ...path) => join(dirname(require.resolve(`${name}/package.json`)), ...path);
const appServer = (name) => join(dirname(require.resolve(name)), 'index.js');

const dir = mkdtempSync(join(tmpdir(), 'mcp-live-capture-'));
const files = join(dir, 'files');
try {
  await build({
    entryPoints: {
      index: join(root, 'src', 'index.ts'),
      node: join(root, 'src', 'node.ts'),
      example: join(root, 'examples', 'server.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outdir: dir,
    packages: 'external',
    logLevel: 'error',
  });
  // The bundles import packages by name: resolve them from the repository's node_modules.
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(files);
  const { McpClient } = await import(pathToFileURL(join(dir, 'index.js')).href);
  const { StdioTransport } = await import(pathToFileURL(join(dir, 'node.js')).href);
  const servers = {
    everything: [published('@modelcontextprotocol/server-everything', 'dist', 'index.js'), 'stdio'],
    filesystem: [published('@modelcontextprotocol/server-filesystem', 'dist', 'index.js'), files],
    example: [join(dir, 'example.js')],
    basicVanillajs: [appServer('@modelcontextprotocol/server-basic-vanillajs'), '--stdio'],
    basicPreact: [appServer('@modelcontextprotocol/server-basic-preact'), '--stdio'],
    systemMonitor: [appServer('@modelcontextprotocol/server-system-monitor'), '--stdio'],
  };
  const out = {};
  for (const [name, args] of Object.entries(servers)) {
    const transport = new StdioTransport({ command: process.execPath, args, stderr: 'pipe', closeTimeoutMs: 1000 });
    const client = new McpClient({ transport, clientInfo: { name: 'mcp-live-capture', version: '0.0.0' } });
    try {
      await client.connect();
      const { items: tools } = await client.listAllTools();
      out[name] = tools;
      console.log(`${name}: ${tools.length} tools`);
    } finally {
      await client.close();
    }
  }
  writeFileSync(join(here, 'realTools.json'), `${JSON.stringify(out, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
