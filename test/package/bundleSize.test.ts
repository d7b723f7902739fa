/**
 * The browser bundle of each way to import the package, measured on the packed tarball:
 * esbuild `--bundle --minify --format=esm --platform=browser`, then gzip -9. Each must stay at
 * or under its bound in {@link BUNDLE_BOUNDS}, the one table of record (docs/performance.md, W8,
 * shows the figures). A change that grows a bundle past its bound fails here: shrink it, or raise
 * the bound on purpose in the same commit.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, packTarball, type PackedPackage } from './packedTarball.js';

/** Upper bounds in bytes (1 KB = 1,000 B), a few percent over the 0.1.0 measurement beside each. */
export const BUNDLE_BOUNDS = [
  {
    entry: 'root entry, everything (`export * from "mcp-live"`)',
    code: "export * from 'mcp-live';",
    maxMinified: 404_000, // measured 393.3 KB: McpHost and the model converters (+30.3 KB), the OAuth grants without a browser and DPoP (+17.4 KB), issue 14's fault fixes (+7.7 KB), reconnecting (+14.4 KB)
    maxGzip: 122_000, // measured 118.5 KB
  },
  {
    entry: 'McpClient only',
    code: "export { McpClient } from 'mcp-live';",
    maxMinified: 245_000, // measured 237.3 KB (issue 14's per-request partition and connect bounds: +5.3 KB; reconnecting: +14.6 KB)
    maxGzip: 74_000, // measured 71.1 KB
  },
  {
    entry: 'browser HTTP client (McpClient + StreamableHttpTransport)',
    code: "export { McpClient, StreamableHttpTransport } from 'mcp-live';",
    maxMinified: 293_000, // measured 284.5 KB (the transports' DPoP proof hook: +1.5 KB; issue 14: +7.7 KB; reconnecting: +14.6 KB)
    maxGzip: 88_000, // measured 85.1 KB
  },
  {
    entry: 'McpHost with the Anthropic converters',
    code: "export { McpHost, toAnthropicTools, toAnthropicToolResult } from 'mcp-live';",
    maxMinified: 327_000, // measured 318.8 KB: McpClient and every remote transport (the default factory)
    maxGzip: 99_000, // measured 95.6 KB
  },
] as const;

let pkg: PackedPackage;
beforeAll(async () => {
  pkg = await packTarball();
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await pkg?.remove();
});

/** Minified and gzipped sizes, in bytes, of `code` bundled for the browser from the consumer folder. */
async function measure(code: string): Promise<{ minified: number; gzip: number }> {
  const result = await build({
    stdin: { contents: code, resolveDir: pkg.scratch, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents;
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

describe('browser bundles', () => {
  for (const bound of BUNDLE_BOUNDS) {
    it(`${bound.entry}: at most ${bound.maxMinified} B minified, ${bound.maxGzip} B gzip`, async () => {
      const size = await measure(bound.code);
      // The figures, for docs/performance.md (W8) when a bound moves.
      process.stdout.write(`bundle: ${bound.entry}: ${size.minified} B minified, ${size.gzip} B gzip\n`);
      expect(size.minified).toBeLessThanOrEqual(bound.maxMinified);
      expect(size.gzip).toBeLessThanOrEqual(bound.maxGzip);
    }, 60_000);
  }
});
