/**
 * MCP Apps in a real browser: the ext-apps example server basic-vanillajs over Streamable HTTP
 * (on 127.0.0.1), a host page in headless Chromium that reads its UI resource, renders it in a
 * sandboxed `<iframe>` (opaque origin, the resource's CSP) and bridges it with
 * `mcp-live/apps-bridge`. The app's own button makes one tool call that the approval hook lets
 * through to the server, then one the hook refuses; removing the frame ends the bridge.
 */
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC_VANILLAJS_SERVER, spawnLoopbackServer, type LoopbackServer } from '../fakes/publishedServers.js';
import { STARTUP_MS, chromium, openPage, type BrowserPage } from './harness.js';

const PAGE_SCRIPT = fileURLToPath(new URL('./appsPage.ts', import.meta.url));
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface AppsState {
  allowAppCalls: boolean;
  allowDownloads: boolean;
  downloads: unknown[];
  approvals: Array<{ server: string; name: string; resourceUri: string | undefined; allowed: boolean }>;
  closedReason: string | undefined;
}

describe.skipIf(chromium.skipReason !== undefined)('an MCP App in headless Chromium', () => {
  let browserPage: BrowserPage | undefined;
  let server: LoopbackServer | undefined;
  let page: Page;
  let app: Frame;

  const state = (): Promise<AppsState> =>
    page.evaluate(() => structuredClone((globalThis as unknown as { appsState: AppsState }).appsState));
  const serverTime = (): Promise<string> =>
    app.$eval('#server-time', (element) => (element as HTMLElement).textContent ?? '');

  beforeAll(async () => {
    // The example's CLI listens on every interface; the preload keeps it on 127.0.0.1.
    [browserPage, server] = await Promise.all([openPage(PAGE_SCRIPT), spawnLoopbackServer(BASIC_VANILLAJS_SERVER, [])]);
    page = browserPage.page;
    await page.waitForFunction(() => 'showApp' in globalThis);
  }, STARTUP_MS);

  afterAll(async () => {
    await browserPage?.close();
    await server?.stop();
  }, STARTUP_MS);

  it('renders the app in a sandboxed frame and shows the tool result the host sent', async () => {
    const shown = await page.evaluate(
      (url) => (globalThis as unknown as { showApp(url: string): Promise<Record<string, unknown>> }).showApp(url),
      server!.url,
    );
    expect(shown).toMatchObject({ sandbox: 'allow-scripts', fingerprint: expect.stringMatching(/^sha256:/) });
    expect(shown['bytes']).toBeGreaterThan(100_000);
    const frames = page.frames().filter((frame) => frame !== page.mainFrame());
    expect(frames).toHaveLength(1);
    app = frames[0]!;
    // The frame's origin is opaque: it cannot reach the host page.
    expect(await app.evaluate(() => window.origin)).toBe('null');
    await app.waitForFunction(() => /^\d{4}-/.test(document.querySelector('#server-time')?.textContent ?? ''), {
      timeout: 20_000,
    });
    expect(await serverTime()).toMatch(ISO_TIME);
    expect((await state()).approvals).toEqual([]);
  }, 60_000);

  it("the app's tool call passes the approval hook and reaches the server", async () => {
    const before = await serverTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await app.click('#get-time-btn');
    await app.waitForFunction(
      (previous) => document.querySelector('#server-time')?.textContent !== previous,
      {
        timeout: 20_000,
      },
      before,
    );
    const after = await serverTime();
    expect(after).toMatch(ISO_TIME);
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    expect((await state()).approvals).toEqual([
      { server: 'time', name: 'get-time', resourceUri: 'ui://get-time/mcp-app.html', allowed: true },
    ]);
  }, 60_000);

  it('a call the approval hook refuses never reaches the server; the app gets the error', async () => {
    await page.evaluate(() => {
      (globalThis as unknown as { appsState: AppsState }).appsState.allowAppCalls = false;
    });
    await app.click('#get-time-btn');
    await app.waitForFunction(() => document.querySelector('#server-time')?.textContent === '[ERROR]', {
      timeout: 20_000,
    });
    expect((await state()).approvals).toEqual([
      { server: 'time', name: 'get-time', resourceUri: 'ui://get-time/mcp-app.html', allowed: true },
      { server: 'time', name: 'get-time', resourceUri: 'ui://get-time/mcp-app.html', allowed: false },
    ]);
  }, 60_000);

  it('ui/download-file from inside the sandboxed frame: the host hook gets the checked files and decides', async () => {
    /** Sends one JSON-RPC request from the app's window to the host, as the app's SDK does, and waits for the answer. */
    const fromApp = (id: number, params: unknown) =>
      app.evaluate(
        (requestId, requestParams) =>
          new Promise<unknown>((resolve) => {
            const onMessage = (event: MessageEvent) => {
              const data = event.data as { id?: unknown };
              if (event.source !== window.parent || data?.id !== requestId) return;
              window.removeEventListener('message', onMessage);
              resolve(data);
            };
            window.addEventListener('message', onMessage);
            window.parent.postMessage(
              { jsonrpc: '2.0', id: requestId, method: 'ui/download-file', params: requestParams },
              '*',
            );
          }),
        id,
        params,
      );
    const contents = [
      {
        type: 'resource',
        resource: { uri: 'ui://get-time/exports/../../time.csv', mimeType: 'text/csv', text: 'time\n1\n' },
      },
      { type: 'resource', resource: { uri: 'ui://get-time/notes.txt', blob: btoa('hello') } },
      { type: 'resource_link', uri: 'ui://get-time/archive.zip', name: '../archive.zip' },
    ];
    expect(await fromApp(9001, { contents })).toEqual({ jsonrpc: '2.0', id: 9001, result: {} });
    expect((await state()).downloads).toEqual([
      [
        {
          kind: 'embedded',
          name: 'time.csv',
          uri: 'ui://get-time/exports/../../time.csv',
          mimeType: 'text/csv',
          text: 'time\n1\n',
        },
        { kind: 'embedded', name: 'notes.txt', uri: 'ui://get-time/notes.txt', text: 'hello' },
        { kind: 'link', name: '_archive.zip', uri: 'ui://get-time/archive.zip' },
      ],
    ]);
    // The host refuses: the app hears isError.
    await page.evaluate(() => {
      (globalThis as unknown as { appsState: AppsState }).appsState.allowDownloads = false;
    });
    expect(await fromApp(9002, { contents: [contents[2]] })).toEqual({
      jsonrpc: '2.0',
      id: 9002,
      result: { isError: true },
    });
    // A malformed request never reaches the hook.
    const bad = (await fromApp(9003, {
      contents: [{ type: 'resource', resource: { uri: 'ui://x', blob: '%%%' } }],
    })) as {
      error?: { code: number };
    };
    expect(bad.error?.code).toBe(-32602);
    expect((await state()).downloads).toHaveLength(2);
  }, 60_000);

  it('removing the frame ends the bridge', async () => {
    await page.evaluate(() => (globalThis as unknown as { removeApp(): void }).removeApp());
    await page.waitForFunction(
      () => (globalThis as unknown as { appsState: AppsState }).appsState.closedReason !== undefined,
      { timeout: 10_000 },
    );
    expect((await state()).closedReason).toBe('frame removed');
  }, 30_000);
});
