/**
 * mcp-live in a real browser: the root entry bundled for the browser with esbuild, loaded in
 * headless Chromium (Debian's package, driven by puppeteer-core; nothing downloads a browser)
 * from a page on one origin, talking Streamable HTTP to the example server on another origin
 * (`--cors <page origin>`): connect, list tools, read a resource, call a tool, hear a
 * resourceUpdated on a subscription. And the error a page gets from a server without CORS.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { launch, type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHttpServer, type HttpServerProcess } from '../../examples/httpServerProcess.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { systemBinary } from '../setup/systemBinaries.js';

const chromium = systemBinary('chromium');
const PAGE_SCRIPT = fileURLToPath(new URL('./page.ts', import.meta.url));
/** Flags that run Debian's Chromium headless here: no sandbox (root), GPU or network services. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const STARTUP_MS = 120_000;

/** Serves the page and its bundled script on 127.0.0.1 (its own origin). */
async function servePage(script: string): Promise<{ server: Server; origin: string }> {
  const html =
    '<!doctype html><meta charset="utf-8"><title>mcp-live</title><script type="module" src="/page.js"></script>';
  const server = createServer((req, res) => {
    if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.skipIf(chromium.skipReason !== undefined)('mcp-live in headless Chromium', () => {
  let pageServer: Server | undefined;
  let withCors: HttpServerProcess | undefined;
  let withoutCors: HttpServerProcess | undefined;
  let browser: Browser | undefined;
  let profile: string | undefined;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [PAGE_SCRIPT],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'chrome120',
      write: false,
      logLevel: 'silent',
    });
    const served = await servePage(bundle.outputFiles[0]!.text);
    pageServer = served.server;
    [withCors, withoutCors] = await Promise.all([
      spawnHttpServer(EXAMPLE_SERVER, { cors: served.origin }),
      spawnHttpServer(EXAMPLE_SERVER),
    ]);
    profile = await mkdtemp(join(tmpdir(), 'mcp-live-chromium-'));
    browser = await launch({
      executablePath: chromium.path!,
      args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`],
      headless: true,
      pipe: true,
    });
    page = await browser.newPage();
    await page.goto(`${served.origin}/`);
    await page.waitForFunction(() => 'mcpSession' in globalThis);
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([withCors?.stop(), withoutCors?.stop()]);
    await new Promise<void>((resolve) => (pageServer === undefined ? resolve() : pageServer.close(() => resolve())));
    if (profile !== undefined) await rm(profile, { recursive: true, force: true });
  }, STARTUP_MS);

  it('connects across origins, lists, reads, calls, and hears resourceUpdated', async () => {
    const url = withCors!.url;
    const result = await page.evaluate(
      (endpoint) => (globalThis as unknown as { mcpSession(url: string): Promise<unknown> }).mcpSession(endpoint),
      url,
    );
    expect(result).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      serverName: 'mcp-live-example',
      note: { uri: 'demo://note', mimeType: 'text/plain' },
      sum: { sum: 42 },
      event: { type: 'resourceUpdated', uri: 'demo://note' },
      noteAfter: { uri: 'demo://note', text: 'written from a browser' },
      userAgent: expect.stringContaining('Chrome/'),
    });
    expect((result as { tools: string[] }).tools).toEqual(expect.arrayContaining(['add', 'update_note']));
  }, 60_000);

  it('a server without CORS: the error says CORS', async () => {
    const result = await page.evaluate(
      (endpoint) =>
        (globalThis as unknown as { mcpWithoutCors(url: string): Promise<unknown> }).mcpWithoutCors(endpoint),
      withoutCors!.url,
    );
    expect(result).toMatchObject({ name: 'ConnectionClosedError', code: -32000 });
    expect((result as { message: string }).message).toContain('(CORS)');
    expect((result as { message: string }).message).toContain('Access-Control-Allow-Origin');
  }, 60_000);
});
