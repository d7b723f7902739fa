/**
 * mcp-live in a real browser: the root entry bundled for the browser with esbuild, loaded in
 * headless Chromium (Debian's package, driven by puppeteer-core; nothing downloads a browser)
 * from a page on one origin, talking Streamable HTTP to the example server on another origin
 * (`--cors <page origin>`): connect, list tools, read a resource, call a tool, hear a
 * resourceUpdated on a subscription. And the error a page gets from a server without CORS.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHttpServer, type HttpServerProcess } from '../../examples/httpServerProcess.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { STARTUP_MS, chromium, openPage, type BrowserPage } from './harness.js';

const PAGE_SCRIPT = fileURLToPath(new URL('./page.ts', import.meta.url));

describe.skipIf(chromium.skipReason !== undefined)('mcp-live in headless Chromium', () => {
  let browserPage: BrowserPage | undefined;
  let withCors: HttpServerProcess | undefined;
  let withoutCors: HttpServerProcess | undefined;
  let page: Page;

  beforeAll(async () => {
    browserPage = await openPage(PAGE_SCRIPT);
    page = browserPage.page;
    [withCors, withoutCors] = await Promise.all([
      spawnHttpServer(EXAMPLE_SERVER, { cors: browserPage.origin }),
      spawnHttpServer(EXAMPLE_SERVER),
    ]);
    await page.waitForFunction(() => 'mcpSession' in globalThis);
  }, STARTUP_MS);

  afterAll(async () => {
    await browserPage?.close();
    await Promise.all([withCors?.stop(), withoutCors?.stop()]);
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
