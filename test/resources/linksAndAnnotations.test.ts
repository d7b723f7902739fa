import { describe, expect, it } from 'vitest';
import { CancelledError, ProtocolError, ResourceNotFoundError, TimeoutError } from '../../src/errors/errors.js';
import { annotationsOf, selectByAnnotations } from '../../src/resources/annotations.js';
import { resourceLinksOf } from '../../src/resources/links.js';
import { connectedPair, type Wire } from '../fakes/scriptedServer.js';

const link = (uri: string, extra: Record<string, unknown> = {}) => ({
  type: 'resource_link' as const,
  uri,
  name: uri,
  ...extra,
});

describe('resourceLinksOf', () => {
  it('finds the links of a tool result, a prompt result and content blocks, in order', () => {
    const tool = { content: [{ type: 'text', text: 'x' }, link('a://1'), link('a://2')] };
    expect(resourceLinksOf(tool).map((l) => l.uri)).toEqual(['a://1', 'a://2']);
    const prompt = {
      messages: [
        { role: 'user' as const, content: link('p://1') },
        { role: 'assistant' as const, content: { type: 'text' as const, text: 'y' } },
        { role: 'user' as const, content: link('p://2') },
      ],
    };
    expect(resourceLinksOf(prompt).map((l) => l.uri)).toEqual(['p://1', 'p://2']);
    expect(resourceLinksOf([link('b://1')]).map((l) => l.uri)).toEqual(['b://1']);
  });

  it('leaves out and reports links without a uri or name', () => {
    const errors: Error[] = [];
    const links = resourceLinksOf(
      {
        content: [
          { type: 'resource_link', uri: '', name: 'x' },
          { type: 'resource_link', uri: 'a://1' },
          link('a://2'),
          null,
        ],
      },
      (e) => errors.push(e),
    );
    expect(links.map((l) => l.uri)).toEqual(['a://2']);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
  });
});

describe('client.readResourceLinks', () => {
  async function setup(delays: Record<string, number> = {}) {
    const pair = await connectedPair();
    let inFlight = 0;
    let peak = 0;
    pair.server.on('resources/read', async (request: Wire) => {
      const uri = request['params']['uri'] as string;
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, delays[uri] ?? 5));
      inFlight--;
      if (uri.includes('missing')) return { error: { code: -32602, message: 'Resource not found', data: { uri } } };
      if (uri.includes('silent')) return undefined;
      return { result: { contents: [{ uri, text: `text of ${uri}` }], ttlMs: 60_000, cacheScope: 'public' } };
    });
    return { ...pair, peak: () => peak };
  }

  it('reads every link concurrently, in link order, with a missing one as ResourceNotFoundError for that link only', async () => {
    const { client, server, peak } = await setup({ 'a://1': 30, 'a://3': 1 });
    const result = { content: [link('a://1'), { type: 'text', text: 'between' }, link('a://missing'), link('a://3')] };
    const reads = await client.readResourceLinks(result);
    expect(reads.map((r) => r.link.uri)).toEqual(['a://1', 'a://missing', 'a://3']);
    expect(reads[0]?.result?.contents).toEqual([{ uri: 'a://1', text: 'text of a://1' }]);
    expect(reads[1]?.error).toBeInstanceOf(ResourceNotFoundError);
    expect((reads[1]?.error as ResourceNotFoundError).uri).toBe('a://missing');
    expect(reads[2]?.result?.contents[0]).toMatchObject({ text: 'text of a://3' });
    expect(peak()).toBe(3);
    // Through the cache: reading again sends nothing for the ones that were found.
    const before = server.requests('resources/read').length;
    const again = await client.readResourceLinks(result, { filter: (l) => !l.uri.includes('missing') });
    expect(again.map((r) => r.result?.contents[0])).toEqual(
      reads.filter((r) => r.result).map((r) => r.result?.contents[0]),
    );
    expect(server.requests('resources/read').length).toBe(before);
  });

  it('keeps to the concurrency cap, and shares one request for a link given twice', async () => {
    const { client, server, peak } = await setup();
    const links = [link('c://1'), link('c://2'), link('c://1'), link('c://3'), link('c://4')];
    const reads = await client.readResourceLinks(links, { concurrency: 2 });
    expect(reads.every((r) => r.result !== undefined)).toBe(true);
    expect(peak()).toBe(2);
    expect(server.requests('resources/read').map((r) => r['params']['uri'])).toEqual([
      'c://1',
      'c://2',
      'c://3',
      'c://4',
    ]);
  });

  it('a timeout is that link’s error; the signal rejects the whole read', async () => {
    const { client } = await setup();
    const reads = await client.readResourceLinks([link('d://silent'), link('d://ok')], { timeoutMs: 50 });
    expect(reads[0]?.error).toBeInstanceOf(TimeoutError);
    expect(reads[1]?.result).toBeDefined();
    const controller = new AbortController();
    const whole = client.readResourceLinks([link('e://silent')], { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(whole).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('annotationsOf', () => {
  it('types valid annotations', () => {
    expect(
      annotationsOf({
        annotations: { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2025-01-12T15:00:58Z' },
      }),
    ).toEqual({
      audience: ['user', 'assistant'],
      priority: 0.8,
      lastModified: '2025-01-12T15:00:58Z',
      lastModifiedTime: Date.UTC(2025, 0, 12, 15, 0, 58),
    });
    expect(annotationsOf({ annotations: { lastModified: '2025-01-12' } }).lastModifiedTime).toBe(Date.UTC(2025, 0, 12));
    expect(annotationsOf({ annotations: { lastModified: '2025-01-12T17:00:58.5+02:00' } }).lastModifiedTime).toBe(
      Date.UTC(2025, 0, 12, 15, 0, 58, 500),
    );
    expect(annotationsOf({})).toEqual({});
  });

  it('ignores invalid values with a warning, never throws', () => {
    const errors: Error[] = [];
    const checked = annotationsOf(
      { annotations: { audience: ['user', 'robot', 3], priority: 1.5, lastModified: 'yesterday' } },
      (e) => errors.push(e),
    );
    expect(checked).toEqual({ audience: ['user'] });
    expect(errors.map((e) => (e as ProtocolError).data.value)).toEqual([['user', 'robot', 3], 1.5, 'yesterday']);
    expect(errors.every((e) => e instanceof ProtocolError)).toBe(true);
    for (const bad of ['2025-01-12T15:00:58', '2025-13-45T99:00:00Z', 12, 'x']) {
      expect(annotationsOf({ annotations: { lastModified: bad } })).toEqual({});
    }
    expect(annotationsOf({ annotations: { priority: -0.1, audience: 'user' } })).toEqual({});
    expect(annotationsOf({ annotations: 'loud' }, (e) => errors.push(e))).toEqual({});
    expect(errors).toHaveLength(4);
  });
});

describe('selectByAnnotations', () => {
  const item = (id: string, annotations?: Record<string, unknown>) => ({ id, ...(annotations && { annotations }) });

  it('keeps what is meant for the audience, orders by priority, then recency, then original order', () => {
    const items = [
      item('plain'),
      item('user-only', { audience: ['user'], priority: 1 }),
      item('old-high', { priority: 0.9, lastModified: '2024-01-01T00:00:00Z' }),
      item('new-high', { priority: 0.9, lastModified: '2025-01-01T00:00:00Z' }),
      item('undated-high', { priority: 0.9 }),
      item('low', { audience: ['assistant'], priority: 0.1 }),
      item('plain-2'),
    ];
    expect(selectByAnnotations(items, { audience: 'assistant' }).map((i) => i.id)).toEqual([
      'new-high',
      'old-high',
      'undated-high',
      'plain',
      'plain-2',
      'low',
    ]);
    expect(selectByAnnotations(items, { audience: 'assistant', minPriority: 0.5 }).map((i) => i.id)).toEqual([
      'new-high',
      'old-high',
      'undated-high',
      'plain',
      'plain-2',
    ]);
    expect(selectByAnnotations(items, { defaultPriority: 0 }).map((i) => i.id)[0]).toBe('user-only');
    expect(items.map((i) => i.id)[0]).toBe('plain');
  });

  it('counts invalid annotations as absent and reports them', () => {
    const errors: Error[] = [];
    const items = [item('bad', { priority: 'high', audience: ['robot'] }), item('good', { priority: 0.7 })];
    expect(selectByAnnotations(items, { audience: 'user', onError: (e) => errors.push(e) }).map((i) => i.id)).toEqual([
      'good',
    ]);
    expect(errors).toHaveLength(2);
  });
});
