/**
 * The devtools panel in headless Chromium: a page bundled with esbuild runs an `McpHost` (the
 * runtime-neutral entry) over Streamable HTTP against the example server, a real process this
 * test starts (`--cors` the page's origin), with a `DevtoolsRecorder` attached and the panel of
 * `mcp-live/devtools/panel` mounted. The servers and catalog views show the real server; a tool
 * call shows in the requests view; the page's own CSS does not reach into the panel's shadow
 * root; removing the panel stops it. Screenshot: docs/devtools/panel.png with
 * `DEVTOOLS_SCREENSHOTS=1`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHttpServer, type HttpServerProcess } from '../../examples/httpServerProcess.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { STARTUP_MS, chromium, openPage, type BrowserPage } from './harness.js';

const PAGE_SCRIPT = fileURLToPath(new URL('./devtoolsPanelPage.ts', import.meta.url));
const FOR_DOCS = process.env['DEVTOOLS_SCREENSHOTS'] === '1';
const SHOTS = FOR_DOCS
  ? fileURLToPath(new URL('../../docs/devtools/', import.meta.url))
  : `${mkdtempSync(join(tmpdir(), 'mcp-live-panel-shots-'))}/`;
afterAll(() => {
  if (!FOR_DOCS) rmSync(SHOTS, { recursive: true, force: true });
});

/** In the page: the panel's shadow root's text and rows, read with the panel's own ids. */
declare global {
  var startPanel: (url: string, actions: boolean) => Promise<string[]>;
  var callTool: (name: string, args: Record<string, unknown>) => Promise<string>;
  var stopPanel: () => Promise<void>;
}

describe.skipIf(chromium.skipReason !== undefined)('the devtools panel in headless Chromium', () => {
  let browserPage: BrowserPage | undefined;
  let server: HttpServerProcess | undefined;
  let page: Page;

  /** The cells of each row of a view's main table (the catalog's changes left out). */
  const rows = (view: string): Promise<string[][]> =>
    page.evaluate((id) => {
      const root = document.querySelector('mcp-live-devtools')!.shadowRoot!;
      return Array.from(root.querySelectorAll(`#${id} table:not(.changes) tbody tr`), (tr) =>
        Array.from(tr.querySelectorAll('td'), (td) => td.innerText),
      );
    }, view);
  const show = (view: string): Promise<void> =>
    page.evaluate((id) => {
      document.querySelector('mcp-live-devtools')!.shadowRoot!.getElementById(`tab-${id}`)!.click();
    }, view);

  beforeAll(async () => {
    browserPage = await openPage(PAGE_SCRIPT, 'devtools panel');
    page = browserPage.page;
    await page.setViewport({ width: 1280, height: 720 });
    server = await spawnHttpServer(EXAMPLE_SERVER, { cors: browserPage.origin });
    await page.waitForFunction(() => 'startPanel' in globalThis);
    const tools = await page.evaluate((url) => globalThis.startPanel(url, true), server.url);
    expect(tools).toContain('example__echo');
    await page.waitForFunction(
      () => document.querySelector('mcp-live-devtools')?.getAttribute('data-ready') === 'true',
    );
  }, STARTUP_MS);

  afterAll(async () => {
    await page?.evaluate(() => globalThis.stopPanel()).catch(() => {});
    await browserPage?.close();
    await server?.stop();
  }, STARTUP_MS);

  it('shows the server open over Streamable HTTP on the modern era, with its capabilities', async () => {
    const [example] = await rows('servers');
    expect(example!.slice(0, 5)).toEqual(['example', 'open', 'http', 'modern 2026-07-28', 'mcp-live-example 0.1.0']);
    expect(example![5]).toContain('tools');
    expect(example![10]).toBe('invalidate cache');
    await page.screenshot({ path: `${SHOTS}panel.png` });
  });

  it('with actions: invalidates the server cache on the host in the page', async () => {
    await page.evaluate(() => {
      const root = document.querySelector('mcp-live-devtools')!.shadowRoot!;
      root.querySelector<HTMLButtonElement>('#servers button[data-server="example"]')!.click();
    });
    await page.waitForFunction(() =>
      document
        .querySelector('mcp-live-devtools')!
        .shadowRoot!.querySelector('#servers button[data-server="example"] + .action-result')
        ?.textContent?.startsWith(' done ('),
    );
  });

  it("keeps the page's CSS out of its shadow root", async () => {
    const look = await page.evaluate(() => {
      const root = document.querySelector('mcp-live-devtools')!.shadowRoot!;
      const cell = root.querySelector('#servers td')!;
      return { color: getComputedStyle(cell).color, table: getComputedStyle(root.querySelector('table')!).display };
    });
    expect(look.table).toBe('table');
    expect(look.color).not.toBe('rgb(255, 0, 0)');
    // And the panel's style does not leak out: a table of the page stays hidden by the page's rule.
    expect(await page.evaluate(() => document.querySelectorAll('style').length)).toBe(1);
  });

  it('shows the catalog with exposed names', async () => {
    await show('catalog');
    await page.waitForFunction(
      () => !document.querySelector('mcp-live-devtools')!.shadowRoot!.getElementById('catalog')!.hidden,
    );
    const echo = (await rows('catalog')).find((cells) => cells[1] === 'example__echo');
    expect(echo).toEqual(['tool', 'example__echo', 'example', 'echo', 'available', 'Echo']);
  });

  it('a tool call shows in the requests view', async () => {
    expect(await page.evaluate(() => globalThis.callTool('example__echo', { message: 'from the panel' }))).toBe(
      'from the panel',
    );
    await show('requests');
    await page.waitForFunction(() =>
      Array.from(
        document.querySelector('mcp-live-devtools')!.shadowRoot!.querySelectorAll('#requests table tbody tr'),
      ).some((tr) => tr.textContent.includes('echo') && tr.textContent.includes('ok')),
    );
    const call = (await rows('requests')).find((cells) => cells[1] === 'tools/call' && cells[2] === 'echo');
    expect(call!.slice(0, 3)).toEqual(['example', 'tools/call', 'echo']);
    expect(call![5]).toBe('ok');
    expect(Number.parseFloat(call![4]!)).toBeGreaterThan(0);
    expect(Number(call![6])).toBeGreaterThan(0);
  });

  it('the waterfall shows an input_required call as one bar with its two sends, on the axis of the others', async () => {
    expect(await page.evaluate(() => globalThis.callTool('example__create_ticket', { title: 'Printer on fire' }))).toBe(
      'Ticket "Printer on fire" filed by Ada (priority high).',
    );
    await page.waitForFunction(() =>
      Array.from(document.querySelector('mcp-live-devtools')!.shadowRoot!.querySelectorAll('#requests .wf-row')).some(
        (row) => row.getAttribute('data-sends') === 'first:input_required round:result',
      ),
    );
    const drawn = await page.evaluate(() => {
      const root = document.querySelector('mcp-live-devtools')!.shadowRoot!;
      const rows = Array.from(root.querySelectorAll<HTMLElement>('#requests .wf-row'));
      const ticket = rows.find((row) => row.textContent.includes('create_ticket'))!;
      const bar = ticket.querySelector<HTMLElement>('.wf-bar')!;
      const sends = Array.from(bar.querySelectorAll<HTMLElement>('.wf-send'), (send) => ({
        kind: send.classList[1],
        outcome: send.classList[2],
        left: send.getBoundingClientRect().left,
        right: send.getBoundingClientRect().right,
      }));
      const box = bar.getBoundingClientRect();
      return {
        label: ticket.querySelector('.wf-label')!.textContent,
        servers: Array.from(root.querySelectorAll('#requests .wf-server'), (lane) => lane.getAttribute('data-server')),
        rows: rows.length,
        bar: {
          left: box.left,
          right: box.right,
          track: ticket.querySelector('.wf-track')!.getBoundingClientRect().width,
        },
        sends,
      };
    });
    expect(drawn.label).toBe('tools/call create_ticket · 2 sends (1 input_required round)');
    expect(drawn.servers).toEqual(['example']);
    // The connect's requests, the echo, the ticket: one axis, the ticket last.
    expect(drawn.rows).toBeGreaterThan(2);
    expect(drawn.bar.right - drawn.bar.left).toBeGreaterThan(0);
    expect(drawn.bar.right - drawn.bar.left).toBeLessThan(drawn.bar.track);
    expect(drawn.sends.map((send) => `${send.kind}:${send.outcome}`)).toEqual(['first:input_required', 'round:result']);
    // The round goes out after the first send's answer, both inside the call's bar.
    expect(drawn.sends[1]!.left).toBeGreaterThanOrEqual(drawn.sends[0]!.right - 1);
    expect(drawn.sends[0]!.left).toBeGreaterThanOrEqual(drawn.bar.left - 1);
    expect(drawn.sends[1]!.right).toBeLessThanOrEqual(drawn.bar.right + 1);
    const ticket = (await rows('requests')).find((cells) => cells[2] === 'create_ticket');
    expect(ticket![8]).toBe('2 sends (1 input_required round)');
    await page.screenshot({ path: `${SHOTS}waterfall.png` });
  });

  it('slowest first stays available as the table order; by start lists the newest first', async () => {
    const slowest = (await rows('requests')).map((cells) => Number.parseFloat(cells[4]!));
    expect(slowest).toEqual([...slowest].sort((a, b) => b - a));
    await page.evaluate(() =>
      document.querySelector('mcp-live-devtools')!.shadowRoot!.getElementById('order-start')!.click(),
    );
    const byStart = await rows('requests');
    expect(byStart[0]![2]).toBe('create_ticket');
    await page.evaluate(() =>
      document.querySelector('mcp-live-devtools')!.shadowRoot!.getElementById('order-slowest')!.click(),
    );
  });

  it('removed from the page, it stops and empties its shadow root; put back, it shows the view it showed', async () => {
    const left = await page.evaluate(async () => {
      const panel = document.querySelector('mcp-live-devtools')!;
      panel.remove();
      const text = panel.shadowRoot!.textContent;
      document.body.append(panel);
      return text;
    });
    expect(left).toBe('');
    await page.waitForFunction(() =>
      document.querySelector('mcp-live-devtools')?.shadowRoot?.textContent.includes('Requests ('),
    );
  });
});
