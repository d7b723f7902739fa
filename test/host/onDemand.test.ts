/**
 * The host's parts each used first on a fresh host: tool approval, the skill verbs, slash
 * command and mention completion, mentions, the kept tool lists of lazy servers. They loaded on
 * first use until issue 43 folded them into the host's core (each under 3 KB gzip); the first
 * call of each still works from nothing made beforehand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type McpHostOptions } from '../../src/host/servers/hostOptions.js';
import { MemoryCacheStore } from '../../src/cache/cacheStore.js';
import { ErrorCode } from '../../src/errors/codes.js';
import { ToolApprovalDeniedError } from '../../src/host/policy/errors.js';
import type { HostCompletion } from '../../src/host/userInput/completionCandidates.js';
import { loadSkillsCatalog, skillsServerFactory } from '../../examples/skillsCatalog.js';
import { inMemoryOfficial } from '../fakes/inMemoryOfficial.js';
import { lazyGeneratedServer } from './generatedToolsServer.js';
import { inMemoryExample } from './inMemoryExample.js';

const clientInfo = { name: 'on-demand-tests', version: '0.0.0' };
const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function connected(options: Omit<McpHostOptions, 'clientInfo'>): Promise<McpHost> {
  const host = new McpHost({ clientInfo, ...options });
  hosts.push(host);
  await host.connect();
  return host;
}

function values(completion: HostCompletion): string[] {
  if (completion.status !== 'completed') throw new Error(`not completed: ${JSON.stringify(completion)}`);
  return completion.candidates.map((c) => c.value);
}

describe('each part on its first use from a fresh host', () => {
  it('tool approval: the first call a hook applies to asks it; a denial sends nothing', async () => {
    const example = inMemoryExample();
    const host = await connected({
      servers: { example: example.location },
      approve: (call) => (call.name === 'echo' ? { deny: 'not today' } : 'allow'),
    });
    const denied: unknown = await host.callTool('example__echo', { message: 'hi' }).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(ToolApprovalDeniedError);
    expect(denied).toMatchObject({
      code: ErrorCode.ToolApprovalDenied,
      data: { reason: 'denied', message: 'not today', server: 'example', name: 'echo', exposedName: 'example__echo' },
    });
    expect(example.requests.filter((r) => r.method === 'tools/call')).toEqual([]);
    const added = await host.callTool('example__add', { a: 2, b: 3 });
    expect(added.content).toEqual([{ type: 'text', text: '5' }]);
  });

  it('skills: callSkillTool as the first skill call loads the registry and reads the skill', async () => {
    const catalog = await loadSkillsCatalog();
    const docs = inMemoryOfficial(skillsServerFactory(catalog));
    const host = await connected({
      servers: { docs: { type: 'custom', transport: () => docs.transport() } },
      skills: { trusted: ['docs'] },
    });
    const result = await host.callSkillTool('load_skill', { name: 'docs__code-review' });
    expect(result.isError).toBeUndefined();
    const [block] = result.content as Array<{ type: 'text'; text: string }>;
    expect(block?.text).toMatch(/^\[SKILL\.md of skill docs__code-review, from MCP server "docs" \(trusted\)/);
    expect(block?.text).toContain('name: code-review');
  });

  it('slash command completion: the first completion asks the server for the argument', async () => {
    const host = await connected({ servers: { example: inMemoryExample().location }, completion: { debounceMs: 0 } });
    expect(values(await host.completeSlashCommand('/mcp__example__greet c'))).toEqual(['carol']);
  });

  it('mention completion: the first completion expands the template with the values', async () => {
    const host = await connected({ servers: { example: inMemoryExample().location }, completion: { debounceMs: 0 } });
    expect(values(await host.completeMention('@example:demo://greeting/c'))).toEqual([
      '@example:demo://greeting/carol',
    ]);
  });

  it('mentions: the first resolve reads the resource and writes the messages', async () => {
    const host = await connected({ servers: { example: inMemoryExample().location } });
    const resolved = await host.resolveMentions('Greet @example:demo://greeting/Ada', { api: 'anthropic' });
    expect(resolved.mentions.map((m) => [m.text, m.status])).toEqual([['@example:demo://greeting/Ada', 'included']]);
    expect(resolved.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Greet @example:demo://greeting/Ada' }] },
      {
        role: 'user',
        content: [{ type: 'text', text: 'Resource demo://greeting/Ada (text/plain):\nHello, Ada!' }],
      },
    ]);
  });

  it('lazy servers: the first host keeps the list, a fresh one lists it without starting the server', async () => {
    const store = new MemoryCacheStore();
    const lazy = lazyGeneratedServer('lazy', 1);
    const entry = lazy.entry;
    const first = await connected({ cacheStore: store, servers: { lazy: entry } });
    expect(first.server('lazy')?.state).toBe('open');
    await first.close();
    // The list is kept in the background (a kept list is only a head start): wait for it.
    const { loadLazyTools } = await import('../../src/host/servers/lazyCatalog.js');
    await vi.waitFor(async () =>
      expect(await loadLazyTools({ cache: store }, 'lazy', entry, Date.now())).toHaveLength(2),
    );
    const second = await connected({ cacheStore: store, servers: { lazy: entry } });
    expect(second.server('lazy')?.state).toBe('new');
    expect(lazy.connections).toBe(1);
    expect(second.tools().map((t) => [t.exposedName, t.availability])).toEqual([
      ['lazy__lazy_create_0', 'unavailable'],
      ['lazy__lazy_dump', 'unavailable'],
    ]);
  });
});
