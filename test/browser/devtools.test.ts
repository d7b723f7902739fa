/**
 * The devtools page in headless Chromium (Debian's package through puppeteer-core), served by
 * `serveDevtools` for an McpHost over two real servers on stdio (the example server, 2026-07-28,
 * and @modelcontextprotocol/server-everything, 2025-11-25): both servers shown; a list_changed
 * in the catalog view within a second; the requests slowest first; a call waiting for its
 * approval with its credential-like argument redacted; the cache invalidated from the page; a
 * killed server's reconnect; no token, no page. Each view's screenshot goes to docs/devtools/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCacheEntries } from '../../src/cache/entryListing.js';
import { DevtoolsRecorder } from '../../src/devtools/recorder.js';
import { serveDevtools, type ServedDevtools } from '../../src/devtools/serveDevtools.js';
import { McpHost } from '../../src/host/host.js';
import { nodeTransport } from '../../src/host/servers/nodeTransport.js';
import type { ApprovalVerdict } from '../../src/host/policy/approval.js';
import type { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { EVERYTHING_SERVER } from '../fakes/publishedServers.js';
import { STARTUP_MS, chromium, launchChromium, type LaunchedBrowser } from './harness.js';

/**
 * Where the screenshots go: docs/devtools/ with `DEVTOOLS_SCREENSHOTS=1` (to refresh the docs'
 * pictures), else a folder of the run (so that `npm test` leaves the tree as it found it).
 */
const FOR_DOCS = process.env['DEVTOOLS_SCREENSHOTS'] === '1';
const SHOTS = FOR_DOCS
  ? fileURLToPath(new URL('../../docs/devtools/', import.meta.url))
  : `${mkdtempSync(join(tmpdir(), 'mcp-live-devtools-shots-'))}/`;
afterAll(() => {
  if (!FOR_DOCS) rmSync(SHOTS, { recursive: true, force: true });
});
const FLAPPING = fileURLToPath(new URL('../fakes/children/flapping-tool.mjs', import.meta.url));
const SHORT_TTL = fileURLToPath(new URL('../fakes/children/short-ttl.mjs', import.meta.url));
/** A reconnect slow enough to be seen: the first attempt 4 s after the drop. */
const SLOW_RECONNECT = { jitter: false, minDelayMs: 4000, maxDelayMs: 4000 } as const;

/** Chromium on `url` at the docs' screenshot size, once the page rendered its first snapshot; closed again if it does not. */
async function openPage(url: string): Promise<{ browser: LaunchedBrowser; page: Page }> {
  const browser = await launchChromium();
  try {
    const page = await browser.browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset['ready'] === 'true');
    return { browser, page };
  } catch (error) {
    await browser.close(); // no Chromium left behind when the page does not come up
    throw error;
  }
}

describe.skipIf(chromium.skipReason !== undefined)('the devtools page in headless Chromium', () => {
  let host: McpHost;
  let devtools: ServedDevtools;
  let browser: LaunchedBrowser | undefined;
  let page: Page;
  const transports = new Map<string, StdioTransport>();
  /** Releases the call waiting in the approval hook. */
  let release: (verdict: ApprovalVerdict) => void = () => {};

  /** The text of the view on screen. */
  const viewText = (view: string): Promise<string> =>
    page.$eval(`#${view}`, (section) => (section as HTMLElement).innerText);
  /** The cells of each row of the view's main table (the catalog's changes left out). */
  const rows = (view: string): Promise<string[][]> =>
    page.$$eval(`#${view} table:not(.changes) tbody tr`, (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.innerText)),
    );
  const show = async (view: string): Promise<void> => {
    await page.click(`#tab-${view}`);
    await page.waitForFunction((id) => !document.getElementById(id)!.hidden, {}, view);
  };
  const shoot = (name: string) => page.screenshot({ path: `${SHOTS}${name}.png` });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const recorder = new DevtoolsRecorder();
    host = new McpHost({
      clientInfo: { name: 'mcp-live-devtools-browser', version: '0.0.0' },
      client: { reconnect: SLOW_RECONNECT },
      createTransport: (location, context) => {
        const transport = nodeTransport(location, context) as StdioTransport;
        transports.set(context.server, transport);
        return transport;
      },
      approve: recorder.approve((call) =>
        call.arguments['message'] === 'wait for me'
          ? new Promise<ApprovalVerdict>((resolve) => (release = resolve))
          : 'allow',
      ),
      servers: {
        example: { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] },
        everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
      },
    });
    recorder.attach(host);
    await host.connect();
    devtools = await serveDevtools(recorder, { actions: true });
    ({ browser, page } = await openPage(devtools.url));
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await devtools?.close();
    await host?.close();
  }, STARTUP_MS);

  it('shows both servers open, each on its era, with capabilities and listen or polling', async () => {
    const servers = await rows('servers');
    expect(servers.map((cells) => cells.slice(0, 4))).toEqual([
      ['example', 'open', 'stdio', 'modern 2026-07-28'],
      ['everything', 'open', 'stdio', 'legacy 2025-11-25'],
    ]);
    expect(servers[0]![5]).toContain('tools');
    await shoot('servers');
  });

  it('answers 401 to every request without the token, and serves the page under a strict CSP', async () => {
    const origin = new URL(devtools.url).origin;
    for (const path of ['/', '/events', '/actions', '/?token=wrong', '/events?token=wrong'])
      expect((await fetch(`${origin}${path}`, { method: path === '/actions' ? 'POST' : 'GET' })).status, path).toBe(
        401,
      );
    const response = await fetch(devtools.url);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+'; style-src 'nonce-/);
    const html = await response.text();
    expect(html).not.toMatch(/\b(src|href)=/);
  });

  it('a list_changed reaches the catalog view within a second', async () => {
    await show('catalog');
    expect(await viewText('catalog')).toContain('example__echo');
    expect(await viewText('catalog')).not.toContain('example__standup');
    await host.callTool('example__add_prompt', { name: 'standup', text: 'Summarize {topic} for the standup.' });
    await page.waitForFunction(() => document.getElementById('catalog')!.innerText.includes('example__standup'), {
      timeout: 1000,
    });
    const standup = (await rows('catalog')).find((cells) => cells[1] === 'example__standup');
    expect(standup).toEqual([
      'prompt',
      'example__standup',
      'example',
      'standup',
      'available',
      'Prompt added at runtime: standup',
    ]);
    await shoot('catalog');
  });

  it("tries a query on the catalog view: the ranking of the model's tool search, each tool with its score", async () => {
    await show('catalog');
    await page.focus('#tool-search');
    await page.keyboard.type('echo a message');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#catalog table.tool-search tbody tr') !== null);
    const ranked = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#catalog table.tool-search tbody tr'), (tr) =>
        Array.from(tr.querySelectorAll('td'), (td) => td.innerText),
      ),
    );
    const direct = host.searchTools('echo a message').matches;
    expect(ranked.map((cells) => [cells[1], Number(cells[4])])).toEqual(
      direct.map((m) => [m.tool.exposedName, Math.round(m.score * 1000) / 1000]),
    );
    expect(ranked[0]!.slice(0, 4)).toEqual([
      '1',
      direct[0]!.tool.exposedName,
      direct[0]!.tool.server,
      direct[0]!.tool.tool.name,
    ]);
    // A query of no words says why nothing was found.
    await page.$eval('#tool-search', (input) => ((input as HTMLInputElement).value = '!!!'));
    await page.$eval('#tool-search-run', (button) => (button as HTMLButtonElement).click());
    await page.waitForFunction(() => document.getElementById('catalog')!.innerText.includes('nothing found for "!!!"'));
  });

  it('lists the requests slowest first', async () => {
    await host.callTool('example__slow', { steps: 2, durationMs: 1500 });
    await host.callTool('example__echo', { message: 'fast' });
    await host.callTool('everything__echo', { message: 'fast too' });
    await show('requests');
    // The page has every call once the last one is there, ended.
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('#requests tbody tr')).some((tr) => {
        const cells = Array.from(tr.querySelectorAll('td'), (td) => td.innerText);
        return cells[0] === 'everything' && cells[2] === 'echo' && cells[5] === 'ok';
      }),
    );
    const listed = await rows('requests');
    const durations = listed.map((cells) => Number.parseFloat(cells[4]!));
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
    const slow = listed.findIndex((cells) => cells[2] === 'slow');
    expect(listed[slow]!.slice(0, 3)).toEqual(['example', 'tools/call', 'slow']);
    expect(listed[slow]![5]).toBe('ok');
    expect(durations[slow]).toBeGreaterThanOrEqual(1500);
    // Above every request of the session's own making (the connect's probes may take longer on a busy machine).
    expect(listed.slice(0, slow).every((cells) => cells[1] !== 'tools/call')).toBe(true);
    await shoot('requests');
  });

  it("draws the waterfall under the page's strict CSP: a lane per server, the slow call's bar wider than the quick ones", async () => {
    await show('requests');
    const drawn = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('#requests .wf-row'), (row) => ({
        server: row.closest('.wf-server')!.getAttribute('data-server'),
        label: row.querySelector('.wf-label')!.textContent,
        width: row.querySelector('.wf-bar')!.getBoundingClientRect().width,
      })),
    );
    expect(new Set(drawn.map((row) => row.server))).toEqual(new Set(['example', 'everything']));
    const slow = drawn.find((row) => row.label === 'tools/call slow')!;
    expect(slow.width).toBeGreaterThan(0);
    const echoes = drawn.filter((row) => row.label === 'tools/call echo');
    expect(echoes.length).toBeGreaterThan(0);
    for (const echo of echoes) expect(slow.width).toBeGreaterThan(echo.width);
  });

  it('shows a tool call waiting for its approval, the token in its arguments redacted', async () => {
    const call = host.callTool('example__echo', { message: 'wait for me', token: 'sk-live-devtools-secret' });
    await show('approvals');
    await page.waitForFunction(() => document.getElementById('approvals')!.innerText.includes('example__echo'));
    const text = await viewText('approvals');
    expect(text).toContain('"token": "[redacted]"');
    expect(text).not.toContain('sk-live-devtools-secret');
    await shoot('approvals');
    release('allow');
    expect((await call).content).toEqual([{ type: 'text', text: 'wait for me' }]);
    await page.waitForFunction(() =>
      document.getElementById('approvals')!.innerText.includes('No tool call is waiting'),
    );
  });

  it('invalidates a server cache from the page (actions: true)', async () => {
    const cache = host.client('example')!.cache!;
    await host.client('example')!.listAllTools(); // an entry to drop
    expect((await listCacheEntries(cache)).some((entry) => entry.method === 'tools/list')).toBe(true);
    await show('servers');
    await page.click('#servers button[data-server="example"]');
    const done = await page.waitForFunction(
      () =>
        document
          .querySelector('#servers button[data-server="example"] + .action-result')
          ?.textContent?.match(/^ done \((\d+)\)$/)?.[1],
    );
    // What the page's action answered, and the cache after it (the server's own notifications
    // invalidate entries at any time, so the cache's invalidation count is no measure of one click).
    expect(Number(await done.jsonValue())).toBeGreaterThanOrEqual(1);
    expect((await listCacheEntries(cache)).some((entry) => entry.method === 'tools/list')).toBe(false);
  });

  it('a killed server shows its reconnect attempt, then open again', async () => {
    await show('servers');
    process.kill(transports.get('example')!.pid!, 'SIGKILL');
    await page.waitForFunction(
      () => {
        const row = document.querySelector('#servers tbody tr')!.textContent;
        return row.includes('reconnecting') && row.includes('attempt 1') && row.includes('process-exit');
      },
      { timeout: 3000 },
    );
    const [example] = await rows('servers');
    expect(example![1]).toBe('reconnecting');
    expect(example![7]).toMatch(/^attempt 1, (in \d s|running) after process-exit \(1 in all\)$/);
    await shoot('servers-reconnecting');
    await page.waitForFunction(
      () => document.querySelector('#servers tbody tr td:nth-child(2)')!.textContent === 'open',
      { timeout: 15_000 },
    );
    expect((await rows('servers'))[0]![7]).toBe('1 attempts so far');
  }, 30_000);
});

describe.skipIf(chromium.skipReason !== undefined)('the planted problem: a tool that keeps leaving the catalog', () => {
  let host: McpHost;
  let devtools: ServedDevtools;
  let browser: LaunchedBrowser | undefined;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    host = new McpHost({
      clientInfo: { name: 'mcp-live-devtools-flapping', version: '0.0.0' },
      createTransport: nodeTransport,
      servers: {
        example: { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] },
        flaky: { type: 'stdio', command: process.execPath, args: [FLAPPING, '700'] },
      },
    });
    await host.connect();
    devtools = await serveDevtools(host);
    ({ browser, page } = await openPage(`${devtools.url}#catalog`));
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await devtools?.close();
    await host?.close();
  }, STARTUP_MS);

  it('the catalog view shows it leaving and coming back while its server stays open', async () => {
    // Two removals seen: it left, came back, and left again.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('#catalog table.changes tbody tr')).filter((tr) =>
          tr.textContent.includes('tool flaky__deploy'),
        ).length >= 3,
      { timeout: 10_000 },
    );
    const changes = await page.$$eval('#catalog table.changes tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.innerText)),
    );
    const flaps = changes.filter((cells) => cells.join(' ').includes('tool flaky__deploy')).slice(0, 3);
    for (const cells of flaps) expect(cells[1]).toBe('flaky (open)');
    // Newest first: removed and added alternate.
    const moves = flaps.map((cells) =>
      cells[2] === 'tool flaky__deploy' ? 'added' : cells[3] === 'tool flaky__deploy' ? 'removed' : '?',
    );
    expect(moves.every((move, i) => move !== '?' && (i === 0 || move !== moves[i - 1]))).toBe(true);
    await page.screenshot({ path: `${SHOTS}catalog-flapping.png` });
  }, 30_000);
});

describe.skipIf(chromium.skipReason !== undefined)('the cache, tasks and approvals views in headless Chromium', () => {
  let host: McpHost;
  let devtools: ServedDevtools;
  let browser: LaunchedBrowser | undefined;
  let page: Page;

  const show = async (view: string): Promise<void> => {
    await page.click(`#tab-${view}`);
    await page.waitForFunction((id) => !document.getElementById(id)!.hidden, {}, view);
  };
  /** The row of the cache view about `about` on `server`, as its cells' text. */
  const cacheRow = (server: string, about: string): Promise<string[] | undefined> =>
    page.evaluate(
      (server, about) =>
        Array.from(document.querySelectorAll('#cache tbody tr'))
          .map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.innerText))
          .find((cells) => cells[0] === server && cells[2] === about),
      server,
      about,
    );
  /** Clicks the button labelled `label` in the row of `section` whose cells include `text`. */
  const clickIn = (section: string, text: string, label: string): Promise<void> =>
    page.evaluate(
      (section, text, label) => {
        const row = Array.from(document.querySelectorAll(`#${section} tbody tr`)).find((tr) =>
          Array.from(tr.querySelectorAll('td')).some((td) => td.innerText === text),
        );
        const button = Array.from(row?.querySelectorAll('button') ?? []).find((b) => b.textContent === label);
        if (button === undefined) throw new Error(`no ${label} button in the row of ${text}`);
        button.click();
      },
      section,
      text,
      label,
    );
  const counts = async (): Promise<Record<string, number>> =>
    JSON.parse(((await host.callTool('short__reads', {})).content[0] as { text: string }).text) as Record<
      string,
      number
    >;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const recorder = new DevtoolsRecorder();
    host = new McpHost({
      clientInfo: { name: 'mcp-live-devtools-data', version: '0.0.0' },
      createTransport: nodeTransport,
      // The app lets the page answer: `send` waits for the page, everything else is allowed.
      approve: recorder.approve((call) => (call.name === 'send' ? new Promise<ApprovalVerdict>(() => {}) : 'allow'), {
        fromPage: true,
      }),
      servers: {
        short: { type: 'stdio', command: process.execPath, args: [SHORT_TTL, '1500'] },
        example: {
          type: 'stdio',
          command: process.execPath,
          args: [EXAMPLE_SERVER],
          client: { handlers: { elicitation: { form: () => ({ action: 'accept', content: { approve: true } }) } } },
        },
      },
    });
    recorder.attach(host);
    await host.connect();
    devtools = await serveDevtools(recorder, { actions: true });
    ({ browser, page } = await openPage(`${devtools.url}#cache`));
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await devtools?.close();
    await host?.close();
  }, STARTUP_MS);

  it("a cache entry's TTL runs out on screen", async () => {
    await host.readResource('demo://clock');
    await host.readResource('demo://mine');
    await page.waitForFunction(
      () => /fresh \d\.\d s left of 1500 ms/.test(document.getElementById('cache')!.innerText),
      { timeout: 3000 },
    );
    const fresh = (await cacheRow('short', 'demo://clock'))!;
    expect(fresh.slice(0, 5)).toEqual(['short', 'resources/read', 'demo://clock', 'public', 'public']);
    expect(fresh[8]).toContain('read 1');
    const mine = (await cacheRow('short', 'demo://mine'))!;
    expect(mine.slice(3, 5)).toEqual(['private', 'host']);
    expect(mine[8]).toBe('private: not shown');
    expect(await page.$eval('#cache', (s) => (s as HTMLElement).innerText)).not.toContain('secret of read');
    await page.screenshot({ path: `${SHOTS}cache.png` });
    // Counted down on the page from expiresAt: expired within the TTL and a render's second.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('#cache tbody tr')).some(
          (tr) => tr.textContent.includes('demo://clock') && tr.textContent.includes('expired'),
        ),
      { timeout: 3500 },
    );
    expect((await cacheRow('short', 'demo://mine'))![6]).toMatch(/^fresh \d+\.\d s left of 60000 ms$/);
  });

  it('an invalidation from the page reaches the wire: the next read goes to the server', async () => {
    await host.readResource('demo://mine');
    const before = (await counts())['demo://mine']!;
    await host.readResource('demo://mine');
    expect((await counts())['demo://mine']).toBe(before); // from the cache
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('#cache tbody tr')).some(
        (tr) => tr.querySelectorAll('td')[2]?.textContent === 'demo://mine',
      ),
    );
    await clickIn('cache', 'demo://mine', 'invalidate');
    // The entry leaves the view (and its button with it) once the page reads the cache again.
    await page.waitForFunction(
      () =>
        !Array.from(document.querySelectorAll('#cache tbody tr')).some(
          (tr) => tr.querySelectorAll('td')[2]?.textContent === 'demo://mine',
        ),
      { timeout: 3000 },
    );
    await host.readResource('demo://mine');
    expect((await counts())['demo://mine']).toBe(before + 1);
  });

  it('a refetch from the page sends the read again, past the cache', async () => {
    await host.readResource('demo://clock');
    const before = (await counts())['demo://clock']!;
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('#cache tbody tr')).some(
        (tr) => tr.querySelectorAll('td')[2]?.textContent === 'demo://clock',
      ),
    );
    await clickIn('cache', 'demo://clock', 'refetch');
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('#cache .action-result')).some(
          (result) => result.textContent === ' refetched resources/read',
        ),
      { timeout: 3000 },
    );
    expect((await counts())['demo://clock']).toBe(before + 1);
  });

  it('deny from the page sends nothing; allow sends exactly the arguments shown', async () => {
    await show('approvals');
    const sends = async () => (await counts())['tool:send'] ?? 0;
    const denied = host.callTool('short__send', { to: 'ops', text: 'drop the table' }).then(
      () => 'sent',
      (error: unknown) => (error as Error).name,
    );
    await page.waitForFunction(() => document.getElementById('approvals')!.innerText.includes('drop the table'));
    await clickIn('approvals', 'short__send', 'deny');
    expect(await denied).toBe('ToolApprovalDeniedError');
    expect(await sends()).toBe(0);

    const allowed = host.callTool('short__send', { to: 'ops', text: 'ship it' });
    await page.waitForFunction(() => document.getElementById('approvals')!.innerText.includes('ship it'));
    await page.screenshot({ path: `${SHOTS}approvals-answer.png` });
    await clickIn('approvals', 'short__send', 'allow');
    expect((await allowed).content).toEqual([{ type: 'text', text: 'sent to ops: ship it' }]);
    expect(await sends()).toBe(1);
  });

  it('shows the listen subscriptions and a list_changed heard, with when', async () => {
    await show('subscriptions');
    await host.callTool('example__add_prompt', { name: 'retro', text: 'Summarize {topic} for the retro.' });
    await page.waitForFunction(
      () => document.getElementById('subscriptions')!.innerText.includes('notifications/prompts/list_changed'),
      { timeout: 2000 },
    );
    const open = await page.$$eval('#subscriptions table.subscriptions tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.innerText)),
    );
    const example = open.filter((cells) => cells[0] === 'example');
    expect(example.length).toBeGreaterThan(0);
    expect(example.every((cells) => cells[2] === 'open')).toBe(true);
    expect(example.map((cells) => cells[3]).join(', ')).toContain('promptsListChanged');
    const [newest] = await page.$$eval('#subscriptions table.heard tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.innerText)),
    );
    expect(newest!.slice(1, 3)).toEqual(['example', 'notifications/prompts/list_changed']);
    await page.screenshot({ path: `${SHOTS}subscriptions.png` });
  });

  it('shows a task with its status history', async () => {
    await show('tasks');
    const result = await host.callTool(
      'example__generate_report',
      { topic: 'Q3', steps: 2, stepMs: 50 },
      { task: 'auto' },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Report on "Q3": 2 sections written and approved.' }]);
    await page.waitForFunction(() => document.getElementById('tasks')!.innerText.includes('completed'), {
      timeout: 3000,
    });
    const [row] = await page.$$eval('#tasks tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.innerText)),
    );
    expect(row!.slice(0, 2)).toEqual(['example', 'generate_report']);
    expect(row![3]).toBe('completed');
    expect(row![5]).toMatch(/working[\s\S]*completed$/);
    await page.screenshot({ path: `${SHOTS}tasks.png` });
  });
});
