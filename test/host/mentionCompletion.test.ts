/**
 * Mention completion by fit, against real server processes: a scripted stdio server with the
 * templates db://object/{name} and db://object/{name}/columns/{column} that records every
 * completion/complete request it receives (test/fakes/children/scripted-modern.mjs,
 * `templates`), and the example server with its 250-odd listed resources and three templates.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/nodeHost.js';
import type { CompletedCandidates, HostCompletion } from '../../src/host/userInput/completionCandidates.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';

const SCRIPTED = fileURLToPath(new URL('../fakes/children/scripted-modern.mjs', import.meta.url));

function completed(outcome: HostCompletion): CompletedCandidates {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('mention completion picks the template the typed URI fits', () => {
  let host: McpHost;
  let dir: string;
  let record: string;
  /** The completion/complete params (without `_meta`) the db server received since the last call. */
  const received = (): unknown[] => {
    if (!existsSync(record)) return [];
    const lines = readFileSync(record, 'utf8').split('\n').filter(Boolean);
    rmSync(record, { force: true });
    return lines.map((line) => {
      const { _meta, ...params } = JSON.parse(line) as Record<string, unknown>;
      return params;
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mention-completion-'));
    record = join(dir, 'completions.jsonl');
    host = McpHost.fromConfig(
      {
        mcpServers: {
          db: { command: process.execPath, args: [SCRIPTED, 'templates', record] },
          example: { command: process.execPath, args: [EXAMPLE_SERVER] },
        },
      },
      { clientInfo: { name: 'mention-tests', version: '0.0.0' }, completion: { debounceMs: 0, cacheTtlMs: 0 } },
    );
    const statuses = await host.connect();
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['db', 'open'],
      ['example', 'open'],
    ]);
  }, 30_000);
  beforeEach(() => rmSync(record, { force: true }));
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes the variable the cursor is in, with the ones before it as context.arguments', async () => {
    const columns = completed(await host.completeMention('@db:db://object/aspirin/columns/do'));
    expect(received()).toEqual([
      {
        ref: { type: 'ref/resource', uri: 'db://object/{name}/columns/{column}' },
        argument: { name: 'column', value: 'do' },
        context: { arguments: { name: 'aspirin' } },
      },
    ]);
    expect(columns).toMatchObject({ kind: 'mention', argument: 'column', replace: { start: 0, end: 34 } });
    // The server listed dose twice: one candidate.
    expect(columns.candidates.map((c) => c.value)).toEqual([
      '@db:db://object/aspirin/columns/dose',
      '@db:db://object/aspirin/columns/dosage_form',
    ]);
    expect(columns.candidates[0]).toMatchObject({ kind: 'value', label: 'column' });
  });

  it('a simple variable never spans a /: the first variable while no / follows it', async () => {
    const names = completed(await host.completeMention('@db:db://object/asp'));
    expect(received()).toEqual([
      {
        ref: { type: 'ref/resource', uri: 'db://object/{name}' },
        argument: { name: 'name', value: 'asp' },
      },
    ]);
    expect(names.candidates.map((c) => c.value)).toEqual(['@db:db://object/aspirin', '@db:db://object/aspartame']);
    // Right after the literal: the next variable, empty so far.
    const empty = completed(await host.completeMention('@db:db://object/aspirin/columns/'));
    expect(received()).toMatchObject([
      { argument: { name: 'column', value: '' }, context: { arguments: { name: 'aspirin' } } },
    ]);
    expect(empty.candidates.map((c) => c.value)).toContain('@db:db://object/aspirin/columns/route');
  });

  it('in a literal: the templates it fits, completed through that literal, and nothing asked of the server', async () => {
    const literal = completed(await host.completeMention('@db:db://object/aspirin/co'));
    expect(literal.candidates.map((c) => [c.value, c.kind])).toEqual([
      ['@db:db://object/aspirin/columns/', 'template'],
    ]);
    const start = completed(await host.completeMention('@db:db://ob'));
    expect(start.candidates.map((c) => c.value)).toEqual(['@db:db://object/']);
    expect(received()).toEqual([]);
  });

  it('shows the templates in the first page of a server with more resources than a page', async () => {
    const resources = host.resources().filter((r) => r.server === 'example').length;
    expect(resources).toBeGreaterThan(100);
    const page = completed(await host.completeMention('@example:demo://'));
    expect(page.candidates).toHaveLength(100);
    expect(page.total).toBe(resources + 3);
    expect(page.hasMore).toBe(true);
    expect(page.candidates.filter((c) => c.kind === 'template').map((c) => c.value)).toEqual([
      '@example:demo://greeting/',
      '@example:demo://menu/',
      '@example:demo://items/',
    ]);
    expect(new Set(page.candidates.map((c) => c.value)).size).toBe(100);
  });
});
