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
    maxMinified: 362_000, // measured 351.5 KB with McpHost and the model converters (321.2 KB before)
    maxGzip: 110_000, // measured 106.6 KB (97.0 KB before)
  },
  {
    entry: 'McpClient only',
    code: "export { McpClient } from 'mcp-live';",
    maxMinified: 218_000, // measured 211.4 KB
    maxGzip: 66_000, // measured 64.1 KB
  },
  {
    entry: 'browser HTTP client (McpClient + StreamableHttpTransport)',
    code: "export { McpClient, StreamableHttpTransport } from 'mcp-live';",
    maxMinified: 263_000, // measured 254.8 KB
    maxGzip: 79_000, // measured 76.6 KB
  },
  {
    entry: 'McpHost with the Anthropic converters',
    code: "export { McpHost, toAnthropicTools, toAnthropicToolResult } from 'mcp-live';",
    maxMinified: 302_000, // measured 292.8 KB: McpClient and every remote transport (the default factory)
    maxGzip: 91_000, // measured 88.5 KB
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
