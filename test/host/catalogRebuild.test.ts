/**
 * The incremental catalog rebuild (issue 42): a catalog built from the previous one redoes only
 * the servers that changed, and equals, field by field, the catalog built from nothing; the
 * wrappers of unchanged tools are kept. Property test over random sequences of changes, with
 * names that collide within and across servers, bare prefixes, duplicates, empty names,
 * overrides and both prefix modes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type Catalog, type ServerContribution } from '../../src/host/catalog/catalog.js';
import type { PrefixMode } from '../../src/host/catalog/exposedNames.js';
import type { Tool } from '../../src/wire/protocol.js';

/** Names drawn from a small pool, so that collisions happen; one is empty, one is long. */
const NAMES = ['echo', 'add', 'read_file', 'read-file', 'a__echo', 'b__add', '', 'x'.repeat(70), 'tool', 'get.env'];
const tools = new Map<string, Tool>();
/** One tool object per (name, version): the same name and version is the same listed object. */
function tool(name: string, version: number): Tool {
  const key = `${name}\u0000${version}`;
  let found = tools.get(key);
  if (found === undefined)
    tools.set(key, (found = { name, description: `v${version}`, inputSchema: { type: 'object' } }));
  return found;
}

const server = fc.record({
  prefix: fc.constantFrom('a', 'b', '', 'a'),
  tools: fc.array(fc.record({ name: fc.constantFrom(...NAMES), version: fc.integer({ min: 0, max: 2 }) }), {
    maxLength: 6,
  }),
  available: fc.boolean(),
  rename: fc.boolean(),
});
type Server = typeof server extends fc.Arbitrary<infer T> ? T : never;

function contributions(servers: readonly Server[]): ServerContribution[] {
  return servers.map((s, i) => ({
    server: `s${i}`,
    availability: s.available ? 'available' : 'unavailable',
    prefix: s.prefix,
    ...(s.rename && { overrides: RENAME }),
    tools: s.tools.map((t) => tool(t.name, t.version)),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  }));
}
const RENAME = { echo: { name: 'add' } };

/** What a catalog says about its tools, comparable across builds. */
function shape(catalog: Catalog): unknown {
  return {
    tools: catalog.tools.map((t) => [t.server, t.exposedName, t.tool, t.availability, t.modelTool?.name]),
    toolCollisions: catalog.toolCollisions,
    leftOut: catalog.leftOut,
    byName: [...catalog.toolsByName].map(([name, t]) => [name, t.server, t.tool]),
  };
}

describe('buildCatalog from the previous catalog', () => {
  it('equals the catalog built from nothing, after any sequence of changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PrefixMode>('always', 'onCollision'),
        fc.array(fc.array(server, { maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        (prefixMode, steps) => {
          let catalog = buildCatalog([], { prefixMode });
          for (const step of steps) {
            const next = buildCatalog(contributions(step), { prefixMode }, catalog);
            expect(shape(next)).toEqual(shape(buildCatalog(contributions(step), { prefixMode })));
            // Every tool unchanged since the last catalog keeps its wrapper.
            const before = new Map(catalog.tools.map((t) => [`${t.server}\u0000${t.exposedName}`, t]));
            for (const t of next.tools) {
              const old = before.get(`${t.server}\u0000${t.exposedName}`);
              if (old !== undefined && old.tool === t.tool && old.availability === t.availability) expect(t).toBe(old);
            }
            catalog = next;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a change to one server of twenty keeps every other server’s wrappers', () => {
    const lists = Array.from({ length: 20 }, (_, s) => Array.from({ length: 50 }, (_, i) => tool(`t${s}_${i}`, 0)));
    const make = (changed: number): ServerContribution[] =>
      lists.map((list, s) => ({
        server: `s${s}`,
        prefix: `s${s}`,
        tools: s === 3 ? list.map((t, i) => (i === changed ? tool(t.name, 1) : t)) : [...list],
        prompts: [],
        resources: [],
        resourceTemplates: [],
      }));
    const first = buildCatalog(make(-1));
    const second = buildCatalog(make(7), {}, first);
    const changed = second.tools.filter((t, i) => t !== first.tools[i]);
    expect(changed.map((t) => t.exposedName)).toEqual(['s3__t3_7']);
    expect(second.toolsByName.get('s3__t3_7')?.tool.description).toBe('v1');
    expect(shape(second)).toEqual(shape(buildCatalog(make(7))));
  });
});
