/**
 * What the browser tests share: a page script bundled for the browser with esbuild, served with
 * a bare page on 127.0.0.1 (its own origin), and Debian's Chromium launched headless through
 * puppeteer-core (nothing downloads a browser); `close()` stops both and removes the profile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { launch, type Browser, type Page } from 'puppeteer-core';
import { systemBinary } from '../setup/systemBinaries.js';

/** Debian's Chromium, or why the browser tests skip. */
export const chromium = systemBinary('chromium');

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

/** How long bundling, serving and launching may take on a busy machine. */
export const STARTUP_MS = 120_000;

/** A page of the bundled script, open in headless Chromium. */
export interface BrowserPage {
  readonly page: Page;
  /** The page's origin, e.g. `http://127.0.0.1:40123`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Bundles `script` (a .ts path), serves it at `/page.js` under a bare page, and opens that page. */
export async function openPage(script: string, title = 'mcp-live'): Promise<BrowserPage> {
  const bundle = await build({
    entryPoints: [script],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  const code = bundle.outputFiles[0]!.text;
  const html = `<!doctype html><meta charset="utf-8"><title>${title}</title><script type="module" src="/page.js"></script>`;
  const server: Server = createServer((req, res) => {
    if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stopServer = (): Promise<void> => new Promise<void>((resolve) => server.close(() => resolve()));
  let browser: LaunchedBrowser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await stopServer();
    throw error;
  }
  const close = async (): Promise<void> => {
    await browser.close();
    await stopServer();
  };
  try {
    const page = await browser.browser.newPage();
    await page.goto(`${origin}/`);
    return { page, origin, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Debian's Chromium, headless, on a fresh profile; `close()` stops it and removes the profile. */
export interface LaunchedBrowser {
  readonly browser: Browser;
  close(): Promise<void>;
}

/** Launches Debian's Chromium headless with a profile of its own (for a page served elsewhere). */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'mcp-live-chromium-'));
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    await rm(profile, { recursive: true, force: true });
  };
  try {
    browser = await launch({
      executablePath: chromium.path!,
      args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`],
      headless: true,
      pipe: true,
    });
    return { browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}
