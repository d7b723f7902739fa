/**
 * The root entry (`mcp-live`) must run in browsers, Deno and Bun: nothing it reaches may import
 * a Node built-in or a Node-only package. Node-only code belongs behind `mcp-live/node`.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const NODE_ONLY = /^(node:|child_process$|fs$|path$|os$|net$|http$|https$|stream$|crypto$|ws$|ioredis$)/;

/** Every module reachable from `entry` through relative imports, with its bare imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    const bare: string[] = [];
    for (const match of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gm)) {
      const spec = match[1]!;
      if (/^(import|export)\s+type\s/.test(match[0].trim())) continue;
      if (spec.startsWith('.')) pending.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else bare.push(spec);
    }
    graph.set(file, bare);
  }
  return graph;
}

describe('root entry stays runtime-neutral', () => {
  it('imports no Node built-in and no Node-only package, directly or indirectly', () => {
    const graph = importGraph(resolve(SRC, 'index.ts'));
    expect(graph.size).toBeGreaterThan(10);
    const offenders = [...graph].flatMap(([file, specs]) =>
      specs.filter((s) => NODE_ONLY.test(s)).map((s) => `${file.slice(SRC.length + 1)} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the node entry is where the stdio transport lives', () => {
    const graph = importGraph(resolve(SRC, 'node.ts'));
    const specs = [...graph.values()].flat();
    expect(specs.some((s) => s === 'node:child_process' || s === 'child_process')).toBe(true);
  });

  it('the DOM code of MCP Apps (src/apps/browser/) is reached from mcp-live/apps-bridge only', () => {
    const browser = (entry: string) =>
      [...importGraph(resolve(SRC, entry)).keys()].filter((file) => file.includes('/apps/browser/'));
    for (const entry of ['index.ts', 'node.ts', 'redis.ts']) expect(browser(entry)).toEqual([]);
    expect(browser('appsBridge.ts').length).toBeGreaterThan(0);
  });
});
