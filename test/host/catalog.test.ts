/**
 * The catalog, pure: the union of the servers' lists in host order, tool filters, exposed
 * names, stable wrappers, and which kinds changed.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, changedKinds, toolAllowed, type ServerContribution } from '../../src/host/catalog/catalog.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../src/wire/protocol.js';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });
const prompt = (name: string): Prompt => ({ name });
const resource = (uri: string): Resource => ({ uri, name: uri });
const template = (uriTemplate: string): ResourceTemplate => ({ uriTemplate, name: uriTemplate });

function server(name: string, lists: Partial<Omit<ServerContribution, 'server' | 'prefix'>> = {}): ServerContribution {
  return { server: name, prefix: name, tools: [], prompts: [], resources: [], resourceTemplates: [], ...lists };
}

describe('buildCatalog', () => {
  it('tags every item with its server, in host order, tools and prompts under exposed names', () => {
    const a = server('a', {
      tools: [tool('echo'), tool('add')],
      prompts: [prompt('greet')],
      resources: [resource('a://1')],
      resourceTemplates: [template('a://{id}')],
    });
    const b = server('b', { tools: [tool('echo')], resources: [resource('shared://x')] });
    const catalog = buildCatalog([a, b]);
    expect(catalog.tools.map((t) => [t.server, t.exposedName, t.tool.name])).toEqual([
      ['a', 'a__echo', 'echo'],
      ['a', 'a__add', 'add'],
      ['b', 'b__echo', 'echo'],
    ]);
    expect(catalog.prompts.map((p) => p.exposedName)).toEqual(['a__greet']);
    expect(catalog.resources.map((r) => [r.server, r.resource.uri])).toEqual([
      ['a', 'a://1'],
      ['b', 'shared://x'],
    ]);
    expect(catalog.resourceTemplates.map((t) => t.server)).toEqual(['a']);
    expect(catalog.toolsByName.get('b__echo')?.tool).toBe(b.tools[0]);
    expect(Object.isFrozen(catalog.tools)).toBe(true);
    expect(Object.isFrozen(catalog.tools[0])).toBe(true);
  });

  it("applies each server's tool filter by original name, deny over allow", () => {
    const catalog = buildCatalog([
      server('a', {
        tools: [tool('read'), tool('write'), tool('delete')],
        toolFilter: { allow: ['read', 'write'], deny: ['write'] },
      }),
      server('b', { tools: [tool('read'), tool('delete')], toolFilter: { deny: ['delete'] } }),
    ]);
    expect(catalog.tools.map((t) => t.exposedName)).toEqual(['a__read', 'b__read']);
    expect(toolAllowed(tool('x'), undefined)).toBe(true);
    expect(toolAllowed(tool('x'), { allow: [] })).toBe(false);
  });

  it('lists every server that lists one URI', () => {
    const catalog = buildCatalog([
      server('a', { resources: [resource('file:///x')] }),
      server('b', { resources: [resource('file:///x'), resource('file:///y')] }),
    ]);
    expect(catalog.resourcesByUri.get('file:///x')?.map((r) => r.server)).toEqual(['a', 'b']);
    expect(catalog.resourcesByUri.get('file:///y')?.map((r) => r.server)).toEqual(['b']);
  });

  it('reports collisions, and keeps both tools', () => {
    const catalog = buildCatalog([
      { ...server('one', { tools: [tool('echo')] }), prefix: 'x' },
      { ...server('two', { tools: [tool('echo')] }), prefix: 'x' },
    ]);
    expect(catalog.tools).toHaveLength(2);
    expect(catalog.toolCollisions).toHaveLength(1);
    expect(catalog.toolCollisions[0]?.exposedName).toBe('x__echo');
    expect(new Set(catalog.tools.map((t) => t.exposedName)).size).toBe(2);
  });

  it('keeps the wrappers of unchanged items, and says which kinds changed', () => {
    const echo = tool('echo');
    const first = buildCatalog([server('a', { tools: [echo], prompts: [prompt('p')] })]);
    const same = buildCatalog([server('a', { tools: [echo], prompts: first.prompts.map((p) => p.prompt) })], {}, first);
    expect(same.tools[0]).toBe(first.tools[0]);
    expect(changedKinds(first, same)).toEqual([]);
    const more = buildCatalog(
      [server('a', { tools: [echo, tool('add')], prompts: first.prompts.map((p) => p.prompt) })],
      {},
      same,
    );
    expect(more.tools[0]).toBe(first.tools[0]);
    expect(changedKinds(same, more)).toEqual(['tools']);
    const gone = buildCatalog([], {}, more);
    expect(changedKinds(more, gone)).toEqual(['tools', 'prompts']);
  });

  it('prefixes only shared names in onCollision mode', () => {
    const catalog = buildCatalog(
      [server('a', { tools: [tool('echo'), tool('add')] }), server('b', { tools: [tool('echo')] })],
      {
        prefixMode: 'onCollision',
      },
    );
    expect(catalog.tools.map((t) => t.exposedName)).toEqual(['a__echo', 'add', 'b__echo']);
  });
});
