/** The pure parts of MCP Apps: tool metadata, the declared capability, resource checks, the frame policy. */
import { describe, expect, it } from 'vitest';
import { toolUi } from '../../src/apps/toolUi.js';
import { withAppsExtension } from '../../src/apps/capability.js';
import { appResourceFrom } from '../../src/apps/appResource.js';
import { isAppMimeType } from '../../src/apps/uiUri.js';
import { appContentSecurityPolicy, appFrameDocument, appPermissionsPolicy } from '../../src/apps/framePolicy.js';
import { resolveClientOptions } from '../../src/client/options.js';
import { InMemoryTransport } from '../../src/transport/memory.js';

const URI = 'ui://demo/app.html';
const MIME = 'text/html;profile=mcp-app';

describe('toolUi', () => {
  it('reads the nested and the deprecated flat link; visibility defaults to model and app', () => {
    expect(toolUi({})).toEqual({ resourceUri: undefined, visibility: ['model', 'app'] });
    expect(toolUi({ _meta: { 'ui/resourceUri': URI } })).toEqual({ resourceUri: URI, visibility: ['model', 'app'] });
    expect(toolUi({ _meta: { ui: { resourceUri: 'https://x', visibility: ['app', 'bogus'] } } })).toEqual({
      resourceUri: undefined,
      visibility: ['app'],
    });
    expect(toolUi({ _meta: { ui: { visibility: 'app' } } }).visibility).toEqual(['model', 'app']);
  });
});

describe('declaring the extension', () => {
  it('apps: true adds io.modelcontextprotocol/ui with the MIME type; other extensions stay', () => {
    const [transport] = InMemoryTransport.createLinkedPair();
    const resolved = resolveClientOptions({
      transport,
      clientInfo: { name: 'x', version: '1' },
      capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      apps: { maxHtmlBytes: 2048 },
    });
    expect(resolved.capabilities.extensions).toEqual({
      'io.modelcontextprotocol/tasks': {},
      'io.modelcontextprotocol/ui': { mimeTypes: [MIME] },
    });
    expect(resolved.apps).toEqual({ maxHtmlBytes: 2048 });
    expect(resolveClientOptions({ transport, clientInfo: { name: 'x', version: '1' } }).capabilities).toEqual({});
    expect(() =>
      resolveClientOptions({ transport, clientInfo: { name: 'x', version: '1' }, apps: { maxHtmlBytes: 0 } }),
    ).toThrow(/apps\.maxHtmlBytes/);
    expect(withAppsExtension({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } })).toEqual({
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } },
    });
  });
});

describe('appResourceFrom', () => {
  it('decodes a blob, takes CSP and permissions from the list entry when the item has none', () => {
    const html = '<!doctype html><p>héllo</p>';
    const resource = appResourceFrom(
      { contents: [{ uri: URI, mimeType: 'text/html; profile=mcp-app', blob: Buffer.from(html).toString('base64') }] },
      URI,
      {
        listed: {
          uri: URI,
          name: 'app',
          _meta: {
            ui: { csp: { resourceDomains: ['https://cdn.example.com'] }, permissions: { camera: {}, usb: {} } },
          },
        },
      },
    );
    expect(resource.html).toBe(html);
    expect(resource.bytes).toBe(Buffer.byteLength(html));
    expect(resource.csp).toEqual({ resourceDomains: ['https://cdn.example.com'] });
    expect(resource.permissions).toEqual({ camera: {} });
    expect(appPermissionsPolicy(resource.permissions)).toBe('camera');
  });

  it('refuses the wrong MIME type and bytes that are not UTF-8', () => {
    expect(() => appResourceFrom({ contents: [{ uri: URI, mimeType: 'text/html', text: '<p>' }] }, URI)).toThrow(
      expect.objectContaining({ code: -33070, data: { uri: URI, reason: 'mime-type', value: 'text/html' } }),
    );
    expect(() =>
      appResourceFrom(
        { contents: [{ uri: URI, mimeType: MIME, blob: Buffer.from([0xff, 0xfe]).toString('base64') }] },
        URI,
      ),
    ).toThrow(expect.objectContaining({ data: { uri: URI, reason: 'not-utf8' } }));
    expect(() => appResourceFrom({ contents: [] }, URI)).toThrow(
      expect.objectContaining({ data: { uri: URI, reason: 'no-contents' } }),
    );
    expect(isAppMimeType('TEXT/HTML ; profile="mcp-app"')).toBe(true);
    expect(isAppMimeType('text/html;profile=other')).toBe(false);
  });

  it('the fingerprint follows the HTML and the declared policy', () => {
    const read = (text: string, csp?: object) =>
      appResourceFrom({ contents: [{ uri: URI, mimeType: MIME, text, ...(csp && { _meta: { ui: { csp } } }) }] }, URI)
        .fingerprint;
    expect(read('<p>a')).toBe(read('<p>a'));
    expect(read('<p>a')).not.toBe(read('<p>b'));
    expect(read('<p>a')).not.toBe(read('<p>a', { connectDomains: ['https://api.example.com'] }));
  });
});

describe('the frame policy', () => {
  it('builds the CSP from the declared domains, and puts it first in the document', () => {
    expect(appContentSecurityPolicy({ connectDomains: ['https://api.example.com'], frameDomains: [] })).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
        "connect-src 'self' https://api.example.com; img-src 'self' data:; font-src 'self'; " +
        "media-src 'self' data:; frame-src 'none'; object-src 'none'; base-uri 'self'",
    );
    expect(appFrameDocument({ html: '<script>x()</script>', csp: undefined })).toMatch(
      /^<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*connect-src 'none'; object-src 'none'"><script>/,
    );
  });
});
