/**
 * The HTTP transport and the runtime-neutral WebSocket class must load in browsers, Deno and
 * Bun: no Node built-ins and no `ws` anywhere in what they import.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const NEUTRAL_ENTRIES = [
  'transport/http/streamableHttp.ts',
  'transport/http/sseReader.ts',
  'transport/http/mcpParamHeaders.ts',
  'transport/websocket/webSocket.ts',
];
const ALLOWED_PACKAGES = new Set(['eventsource-parser', 'p-retry', '@noble/hashes/sha2.js', '@noble/hashes/utils.js']);

/** Every module `entry` imports, transitively: relative files and package names. */
function importsOf(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [resolve(SRC, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    // Static imports and re-exports, and the dynamic imports of the parts loaded on first use.
    for (const match of source.matchAll(/(?:(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+|\bimport\()'([^']+)'/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  }
  return { files: [...files], packages: [...packages] };
}

describe('runtime-neutral transports', () => {
  it.each(NEUTRAL_ENTRIES)('%s imports no Node built-in and no ws', (entry) => {
    const { files, packages } = importsOf(entry);
    expect(files.length).toBeGreaterThan(1);
    expect(packages.filter((p) => !ALLOWED_PACKAGES.has(p))).toEqual([]);
  });

  it('follows the parts the HTTP transport loads on first use', () => {
    const names = importsOf('transport/http/streamableHttp.ts').files.map((file) => file.slice(SRC.length + 1));
    expect(names).toEqual(
      expect.arrayContaining([
        'transport/http/ssePump.ts',
        'transport/http/tries.ts',
        'transport/http/legacy/legacyWire.lazy.ts',
        'transport/http/legacy/sseConnection.lazy.ts',
      ]),
    );
  });
});
