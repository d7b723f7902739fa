/**
 * W8 as a page feels it (docs/performance.md): what a page loads before its first result. The
 * browser HTTP client (`McpClient` + `StreamableHttpTransport`, default options) bundled for the
 * browser from the package's ES-module tree (dist/modules/, what a bundler reads through the
 * `import` condition without `node`) with code splitting, each chunk served as its own script,
 * loaded in headless Chromium, which connects to the example server on another origin and
 * resolves `listTools()`. Counted: every script the page fetched before `listTools()` resolved,
 * gzip -9 each, as a server would send it. The bound is {@link FIRST_RESULT_MAX_GZIP}.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { launch, type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHttpServer, type HttpServerProcess } from '../../examples/httpServerProcess.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { STARTUP_MS, chromium } from './harness.js';

/** Upper bound in bytes (gzip -9, summed per script): a few percent over the measurement beside it. */
export const FIRST_RESULT_MAX_GZIP = 78_500; // measured 75,669 B in 24 scripts, none loaded on first use (issue 43 goal: 55,000 B)

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = join(ROOT, 'dist/modules/index.js');

const PAGE = `
import { McpClient, StreamableHttpTransport } from ${JSON.stringify(ENTRY)};
globalThis.firstResult = async (url) => {
  const client = new McpClient({
    transport: new StreamableHttpTransport(url),
    clientInfo: { name: 'w8', version: '0.0.0' },
  });
  await client.connect();
  const { tools } = await client.listTools();
  const loaded = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
  await client.close();
  return { tools: tools.map((tool) => tool.name), loaded };
};
`;

describe.skipIf(chromium.skipReason !== undefined)('W8: the first result in headless Chromium', () => {
  let server: Server | undefined;
  let origin = '';
  let browser: Browser | undefined;
  let profile: string | undefined;
  let mcp: HttpServerProcess | undefined;
  const scripts = new Map<string, Uint8Array>();

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run "npm run build" first`);
    const bundle = await build({
      stdin: { contents: PAGE, resolveDir: ROOT, loader: 'js', sourcefile: 'page.js' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      splitting: true,
      outdir: '/w8',
      entryNames: 'page',
      chunkNames: '[name]-[hash]',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    if (process.env['W8_DETAIL'] === '1')
      for (const [out, meta] of Object.entries(bundle.metafile.outputs))
        console.log(
          out,
          Object.entries(meta.inputs)
            .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
            .slice(0, 6)
            .map(([i, m]) => `${i.replace(/^.*(dist\/modules|node_modules)\//, '')}:${m.bytesInOutput}`)
            .join(' '),
        );
    for (const file of bundle.outputFiles) scripts.set(file.path.slice('/w8'.length), file.contents);
    const html = '<!doctype html><meta charset="utf-8"><title>w8</title><script type="module" src="/page.js"></script>';
    server = createServer((req, res) => {
      const script = scripts.get(req.url ?? '');
      if (script !== undefined) res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(html);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    mcp = await spawnHttpServer(EXAMPLE_SERVER, { cors: origin });
    profile = await mkdtemp(join(tmpdir(), 'mcp-live-w8-'));
    browser = await launch({
      executablePath: chromium.path!,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`],
      headless: true,
      pipe: true,
    });
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    await mcp?.stop();
    if (profile !== undefined) await rm(profile, { recursive: true, force: true });
  }, STARTUP_MS);

  it(`loads at most ${FIRST_RESULT_MAX_GZIP} B gzip before listTools() resolves`, async () => {
    const page = await browser!.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'firstResult' in globalThis);
    const { tools, loaded } = await page.evaluate(
      (url) =>
        (
          globalThis as unknown as { firstResult(url: string): Promise<{ tools: string[]; loaded: string[] }> }
        ).firstResult(url),
      mcp!.url,
    );
    expect(tools).toEqual(expect.arrayContaining(['add']));
    const counted = [...new Set(['/page.js', ...loaded.filter((path) => scripts.has(path))])];
    const gzip = counted.reduce((sum, path) => sum + gzipSync(scripts.get(path)!, { level: 9 }).length, 0);
    if (process.env['W8_DETAIL'] === '1')
      for (const path of counted) console.log(path, gzipSync(scripts.get(path)!, { level: 9 }).length);
    console.log(`W8 first result: ${gzip} B gzip in ${counted.length} scripts (${[...scripts.keys()].length} built)`);
    expect(gzip).toBeLessThanOrEqual(FIRST_RESULT_MAX_GZIP);
    await page.close();
  }, 60_000);
});
