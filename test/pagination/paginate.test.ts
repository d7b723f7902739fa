import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CancelledError,
  InvalidArgumentError,
  ProtocolError,
  RpcError,
  isCancelledError,
} from '../../src/errors/errors.js';
import type { JsonObject } from '../../src/wire/messages.js';
import {
  DEFAULT_MAX_PAGES,
  items,
  listAll,
  pageFromResult,
  pages,
  type FetchPage,
  type Page,
} from '../../src/pagination/paginate.js';
import {
  PAGINATION_FAILED,
  PaginationError,
  PaginationLimitError,
  isPaginationError,
} from '../../src/pagination/errors.js';

type Reply = { result: JsonObject } | { error: { code: number; message: string; data?: unknown } };
interface Call {
  cursor: string | undefined;
  /** The params a client would put on the wire for this fetch. */
  params: JsonObject;
  signal: AbortSignal | undefined;
}

/**
 * A fake list endpoint behind a FetchPage hook: `respond` gets the cursor and the 1-based call
 * number and returns a raw result (parsed with pageFromResult) or an error (thrown as RpcError).
 */
function fakeList<T = unknown>(method: string, respond: (cursor: string | undefined, call: number) => Reply) {
  const calls: Call[] = [];
  const fetchPage: FetchPage<T> = async (cursor, signal) => {
    const params: JsonObject = cursor === undefined ? {} : { cursor };
    calls.push({ cursor, params, signal });
    await Promise.resolve();
    const reply = respond(cursor, calls.length);
    if ('error' in reply) throw new RpcError(reply.error, method);
    return pageFromResult<T>(method, reply.result);
  };
  return { fetchPage, calls, cursors: () => calls.map((c) => c.cursor) };
}

/** Replies keyed by cursor; `NONE` is the first page (no cursor). */
const NONE = '<no cursor>';
function byCursor(replies: Record<string, Reply>) {
  return (cursor: string | undefined): Reply => {
    const reply = replies[cursor ?? NONE];
    if (reply === undefined) throw new Error(`unexpected cursor ${JSON.stringify(cursor)}`);
    return reply;
  };
}

const invalidCursor: Reply = { error: { code: -32602, message: 'Invalid cursor' } };
const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

async function collect<T>(iterator: AsyncIterableIterator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterator) out.push(value);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('B01: cursors are opaque', () => {
  it.each([
    ['null', { tools: ['b'], nextCursor: null }],
    ['absent', { tools: ['b'] }],
  ])('"" continues the walk; a %s nextCursor ends it', async (_label, last) => {
    const server = fakeList<string>(
      'tools/list',
      byCursor({ [NONE]: { result: { tools: ['a'], nextCursor: '' } }, '': { result: last } }),
    );
    const out = await listAll(server.fetchPage, { method: 'tools/list' });
    expect(out.items).toEqual(['a', 'b']);
    expect(out.pages).toBe(2);
    expect(out.results).toEqual([{ tools: ['a'], nextCursor: '' }, last]);
    expect(server.calls).toHaveLength(2);
    expect(server.cursors()).toEqual([undefined, '']);
    expect(server.calls[0]?.params).not.toHaveProperty('cursor');
    expect(server.calls[1]?.params).toEqual({ cursor: '' });
  });

  it('pages() yields each page as the hook returned it, and items() flattens them in order', async () => {
    const replies = byCursor({
      [NONE]: { result: { tools: ['a'], nextCursor: '' } },
      '': { result: { tools: ['b', 'c'] } },
    });
    const walked = await collect(pages(fakeList<string>('tools/list', replies).fetchPage, { method: 'tools/list' }));
    expect(walked.map((p: Page<string>) => [p.items, p.nextCursor])).toEqual([
      [['a'], ''],
      [['b', 'c'], undefined],
    ]);
    const server = fakeList<string>('tools/list', replies);
    expect(await collect(items(server.fetchPage, { method: 'tools/list' }))).toEqual(['a', 'b', 'c']);
    expect(server.calls).toHaveLength(2);
  });

  it('an empty page with a cursor continues', async () => {
    const server = fakeList<string>(
      'prompts/list',
      byCursor({
        [NONE]: { result: { prompts: [], nextCursor: 'x' } },
        x: { result: { prompts: [], nextCursor: 'y' } },
        y: { result: { prompts: ['p1'] } },
      }),
    );
    const out = await listAll(server.fetchPage, { method: 'prompts/list' });
    expect(out.items).toEqual(['p1']);
    expect(out.pages).toBe(3);
    expect(server.cursors()).toEqual([undefined, 'x', 'y']);
  });

  it('a one-page list (no nextCursor) is one fetch', async () => {
    const server = fakeList<string>('resources/list', () => ({ result: { resources: ['r'] } }));
    expect(await listAll(server.fetchPage, { method: 'resources/list' })).toEqual({
      items: ['r'],
      pages: 1,
      results: [{ resources: ['r'] }],
    });
    expect(server.calls).toHaveLength(1);
  });
});

describe('B02: a server that never ends its list', () => {
  it.each(['p2', ''])(
    'same 2 items with nextCursor %j every time → PaginationLimitError, never 32 duplicated items',
    async (cursor) => {
      const server = fakeList<string>('tools/list', () => ({ result: { tools: ['a', 'b'], nextCursor: cursor } }));
      const error = await rejection(listAll(server.fetchPage, { method: 'tools/list', maxPages: 16 }));
      expect(error).toBeInstanceOf(PaginationLimitError);
      expect(error).toBeInstanceOf(PaginationError);
      const limit = error as PaginationLimitError;
      expect(limit.code).toBe(PAGINATION_FAILED);
      expect(limit.code).toBe(-33004);
      expect(limit.local).toBe(true);
      expect(limit.data.method).toBe('tools/list');
      expect(limit.data.maxPages).toBe(16);
      expect(limit.data.pages).toBeLessThanOrEqual(16);
      expect(server.calls.length).toBeLessThanOrEqual(16);
      expect(server.calls.length).toBe(limit.data.pages);
    },
  );

  it('early stop: the same cursor and an identical page → repeated-page after 2 fetches', async () => {
    const server = fakeList<JsonObject>('tools/list', () => ({
      result: { tools: [tool('a'), tool('b')], nextCursor: 'p2' },
    }));
    const error = await rejection(listAll(server.fetchPage, { method: 'tools/list', maxPages: 16 }));
    expect(error).toBeInstanceOf(PaginationLimitError);
    expect((error as PaginationLimitError).data).toEqual({
      method: 'tools/list',
      pages: 2,
      maxPages: 16,
      reason: 'repeated-page',
    });
    expect(isPaginationError(error)).toBe(true);
    expect(server.cursors()).toEqual([undefined, 'p2']);
  });

  it('pages() does not yield the repeated page before failing', async () => {
    const server = fakeList<string>('tools/list', () => ({ result: { tools: ['a', 'b'], nextCursor: '' } }));
    const seen: string[][] = [];
    const error = await rejection(
      (async () => {
        for await (const page of pages(server.fetchPage, { method: 'tools/list' })) seen.push(page.items);
      })(),
    );
    expect(error).toBeInstanceOf(PaginationLimitError);
    expect(seen).toEqual([['a', 'b']]);
  });

  it('pages that differ forever stop at maxPages with exactly maxPages fetches', async () => {
    const server = fakeList<string>('tools/list', (_cursor, call) => ({
      result: { tools: [`t${call}`], nextCursor: `c${call}` },
    }));
    const error = await rejection(listAll(server.fetchPage, { method: 'tools/list', maxPages: 16 }));
    expect(error).toBeInstanceOf(PaginationLimitError);
    expect((error as PaginationLimitError).data).toEqual({
      method: 'tools/list',
      pages: 16,
      maxPages: 16,
      reason: 'max-pages',
    });
    expect(server.calls).toHaveLength(16);
  });

  it('default cap is 1000 fetches', async () => {
    expect(DEFAULT_MAX_PAGES).toBe(1000);
    const server = fakeList<string>('tools/list', (_cursor, call) => ({
      result: { tools: [], nextCursor: String(call) },
    }));
    const error = await rejection(listAll(server.fetchPage, { method: 'tools/list' }));
    expect((error as PaginationLimitError).data).toEqual({
      method: 'tools/list',
      pages: 1000,
      maxPages: 1000,
      reason: 'max-pages',
    });
    expect(server.calls).toHaveLength(1000);
  });

  it('a list of exactly maxPages pages completes', async () => {
    const server = fakeList<string>('tools/list', (_cursor, call) => ({
      result: call < 3 ? { tools: [`t${call}`], nextCursor: `c${call}` } : { tools: ['t3'] },
    }));
    const out = await listAll(server.fetchPage, { method: 'tools/list', maxPages: 3 });
    expect(out.items).toEqual(['t1', 't2', 't3']);
    expect(server.calls).toHaveLength(3);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('maxPages %s is refused before any fetch', (maxPages) => {
    const server = fakeList<string>('tools/list', () => ({ result: { tools: [] } }));
    expect(() => pages(server.fetchPage, { method: 'tools/list', maxPages })).toThrow(InvalidArgumentError);
    expect(() => items(server.fetchPage, { method: 'tools/list', maxPages })).toThrow(InvalidArgumentError);
    expect(server.calls).toHaveLength(0);
  });
});

describe('a cursor that stays the same', () => {
  it('is followed while the pages differ', async () => {
    const server = fakeList<string>('resources/list', (_cursor, call) => ({
      result: call < 3 ? { resources: [`r${call}`], nextCursor: 'same' } : { resources: ['r3'] },
    }));
    const out = await listAll(server.fetchPage, { method: 'resources/list' });
    expect(out.items).toEqual(['r1', 'r2', 'r3']);
    expect(server.cursors()).toEqual([undefined, 'same', 'same']);
  });

  it('is followed when the pages have the same length but different content', async () => {
    const server = fakeList<JsonObject>('tools/list', (_cursor, call) => ({
      result: call < 3 ? { tools: [tool(`t${call}`)], nextCursor: 'same' } : { tools: [] },
    }));
    const out = await listAll(server.fetchPage, { method: 'tools/list' });
    expect(out.items.map((t) => t['name'])).toEqual(['t1', 't2']);
    expect(server.calls).toHaveLength(3);
  });
});

describe('B05: a refresh walks every page', () => {
  it('T1 on page 1, T2 and T3 on page 2 → the list holds all 3', async () => {
    const server = fakeList<JsonObject>(
      'tools/list',
      byCursor({
        [NONE]: { result: { tools: [tool('T1')], nextCursor: 'page2' } },
        page2: { result: { tools: [tool('T2'), tool('T3')] } },
      }),
    );
    const out = await listAll(server.fetchPage, { method: 'tools/list' });
    expect(out.items).toEqual([tool('T1'), tool('T2'), tool('T3')]);
    expect(out.pages).toBe(2);
    expect(server.cursors()).toEqual([undefined, 'page2']);
  });
});

describe('B16 R9: invalid cursor in the middle of a walk', () => {
  const threePages = {
    [NONE]: { result: { tools: ['t1'], nextCursor: 'c2' } },
    c2: { result: { tools: ['t2'], nextCursor: 'c3' } },
    c3: { result: { tools: ['t3'] } },
  } satisfies Record<string, Reply>;

  it('calls onRestart once, then walks again from no cursor; nothing is listed twice', async () => {
    let rejected = false;
    const log: string[] = [];
    const cache = new Map<string, unknown>([['tools/list', ['stale']]]);
    const server = fakeList<string>('tools/list', (cursor) => {
      log.push(`fetch ${cursor ?? NONE}`);
      if (cursor === 'c2' && !rejected) {
        rejected = true;
        return invalidCursor;
      }
      return byCursor(threePages)(cursor);
    });
    const onRestart = vi.fn((error: RpcError) => {
      log.push(`restart ${error.code}`);
      cache.delete('tools/list');
    });
    const out = await listAll(server.fetchPage, { method: 'tools/list', onRestart });
    expect(out.items).toEqual(['t1', 't2', 't3']);
    expect(out.pages).toBe(3);
    expect(out.results).toHaveLength(3);
    expect(onRestart).toHaveBeenCalledTimes(1);
    const error = onRestart.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(RpcError);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe('Invalid cursor');
    expect(cache.has('tools/list')).toBe(false);
    expect(log).toEqual([`fetch ${NONE}`, 'fetch c2', 'restart -32602', `fetch ${NONE}`, 'fetch c2', 'fetch c3']);
    expect(server.calls[2]?.params).not.toHaveProperty('cursor');
  });

  it('a second invalid cursor in the same walk → PaginationError with the RpcError as cause, no loop', async () => {
    const server = fakeList<string>('tools/list', (cursor) =>
      cursor === 'c2' ? invalidCursor : byCursor(threePages)(cursor),
    );
    const onRestart = vi.fn();
    const error = await rejection(listAll(server.fetchPage, { method: 'tools/list', onRestart }));
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).not.toBeInstanceOf(PaginationLimitError);
    const failure = error as PaginationError;
    expect(failure.code).toBe(-33004);
    expect(failure.data).toEqual({ method: 'tools/list', pages: 4, maxPages: 1000, reason: 'invalid-cursor' });
    expect(failure.cause).toBeInstanceOf(RpcError);
    expect((failure.cause as RpcError).code).toBe(-32602);
    expect((failure.cause as RpcError).method).toBe('tools/list');
    expect(onRestart).toHaveBeenCalledTimes(1);
    expect(server.cursors()).toEqual([undefined, 'c2', undefined, 'c2']);
  });

  it('an invalid-params error on the first page (no cursor) is rethrown as is, without a restart', async () => {
    const server = fakeList<string>('tools/list', () => invalidCursor);
    const onRestart = vi.fn();
    const error = await rejection(listAll(server.fetchPage, { method: 'tools/list', onRestart }));
    expect(error).toBeInstanceOf(RpcError);
    expect(error).not.toBeInstanceOf(PaginationError);
    expect((error as RpcError).code).toBe(-32602);
    expect(onRestart).not.toHaveBeenCalled();
    expect(server.calls).toHaveLength(1);
  });

  it('any other error mid-walk is rethrown as is, without a restart', async () => {
    const server = fakeList<string>('tools/list', (cursor) =>
      cursor === 'c2' ? { error: { code: -32603, message: 'boom' } } : byCursor(threePages)(cursor),
    );
    const onRestart = vi.fn();
    const error = await rejection(listAll(server.fetchPage, { method: 'tools/list', onRestart }));
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32603);
    expect(onRestart).not.toHaveBeenCalled();
    expect(server.calls).toHaveLength(2);
  });

  it('an onRestart that throws ends the walk with its error', async () => {
    const server = fakeList<string>('tools/list', (cursor) =>
      cursor === 'c2' ? invalidCursor : byCursor(threePages)(cursor),
    );
    const boom = new Error('cache unavailable');
    const error = await rejection(
      listAll(server.fetchPage, {
        method: 'tools/list',
        onRestart: async () => {
          throw boom;
        },
      }),
    );
    expect(error).toBe(boom);
    expect(server.calls).toHaveLength(2);
  });

  it('the restart counts against maxPages', async () => {
    const server = fakeList<string>('tools/list', (cursor) =>
      cursor === 'c2' ? invalidCursor : byCursor(threePages)(cursor),
    );
    const error = await rejection(listAll(server.fetchPage, { method: 'tools/list', maxPages: 2 }));
    expect((error as PaginationLimitError).data).toEqual({
      method: 'tools/list',
      pages: 2,
      maxPages: 2,
      reason: 'max-pages',
    });
    expect(server.calls).toHaveLength(2);
  });

  it('items() streams page one again after a restart (documented; listAll discards instead)', async () => {
    let rejected = false;
    const server = fakeList<string>('tools/list', (cursor) => {
      if (cursor === 'c2' && !rejected) {
        rejected = true;
        return invalidCursor;
      }
      return byCursor(threePages)(cursor);
    });
    expect(await collect(items(server.fetchPage, { method: 'tools/list' }))).toEqual(['t1', 't1', 't2', 't3']);
  });
});

describe('AbortSignal', () => {
  it('is passed to each fetch', async () => {
    const controller = new AbortController();
    const server = fakeList<string>(
      'tools/list',
      byCursor({ [NONE]: { result: { tools: ['a'], nextCursor: 'n' } }, n: { result: { tools: ['b'] } } }),
    );
    await listAll(server.fetchPage, { method: 'tools/list', signal: controller.signal });
    expect(server.calls.map((c) => c.signal)).toEqual([controller.signal, controller.signal]);
  });

  it('aborting between pages stops before the next fetch with CancelledError', async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    const server = fakeList<string>('tools/list', (_cursor, call) => ({
      result: { tools: [`t${call}`], nextCursor: `c${call}` },
    }));
    const seen: string[][] = [];
    const error = await rejection(
      (async () => {
        for await (const page of pages(server.fetchPage, { method: 'tools/list', signal: controller.signal })) {
          seen.push(page.items);
          if (seen.length === 2) controller.abort(reason);
        }
      })(),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(isCancelledError(error)).toBe(true);
    expect((error as CancelledError).code).toBe(-32800);
    expect((error as CancelledError).cause).toBe(reason);
    expect((error as CancelledError).data).toEqual({ method: 'tools/list' });
    expect(seen).toEqual([['t1'], ['t2']]);
    expect(server.calls).toHaveLength(2);
  });

  it('an already aborted signal sends no fetch', async () => {
    const server = fakeList<string>('tools/list', () => ({ result: { tools: [] } }));
    const error = await rejection(
      listAll(server.fetchPage, { method: 'tools/list', signal: AbortSignal.abort('gone') }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe('gone');
    expect(server.calls).toHaveLength(0);
  });

  it('a fetch that rejects with signal.reason becomes CancelledError; a CancelledError from the hook passes through', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const rawHook: FetchPage<string> = async (_cursor, signal) => {
      controller.abort(reason);
      throw signal?.reason;
    };
    const error = await rejection(listAll(rawHook, { method: 'tools/list', signal: controller.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe(reason);

    const own = new CancelledError('tools/list', 'hook');
    const typedHook: FetchPage<string> = async () => {
      throw own;
    };
    expect(await rejection(listAll(typedHook, { method: 'tools/list', signal: new AbortController().signal }))).toBe(
      own,
    );
  });
});

describe('hot path', () => {
  it('100 pages of 100 items: every item once, in order, 100 fetches, no JSON.stringify', async () => {
    const pageCount = 100;
    const perPage = 100;
    const made: Page<number>[] = [];
    for (let p = 0; p < pageCount; p++) {
      const list: number[] = [];
      for (let i = 0; i < perPage; i++) list.push(p * perPage + i);
      made.push({ items: list, nextCursor: p + 1 < pageCount ? `p${p + 1}` : undefined, result: {} });
    }
    let fetches = 0;
    const fetchPage: FetchPage<number> = async (cursor) => {
      const index = cursor === undefined ? 0 : Number(cursor.slice(1));
      fetches++;
      return made[index] as Page<number>;
    };
    const stringify = vi.spyOn(JSON, 'stringify');
    const out = await listAll(fetchPage, { method: 'resources/list' });
    expect(stringify).not.toHaveBeenCalled();
    expect(fetches).toBe(pageCount);
    expect(out.pages).toBe(pageCount);
    expect(out.items).toHaveLength(pageCount * perPage);
    expect(out.items.every((value, index) => value === index)).toBe(true);
    // The pages handed out are not touched.
    expect(made[0]?.items).toHaveLength(perPage);
  });
});

describe('pageFromResult', () => {
  it('reads the method\'s list key and nextCursor (null → undefined, "" kept)', () => {
    expect(pageFromResult('resources/templates/list', { resourceTemplates: [1], nextCursor: null })).toEqual({
      items: [1],
      nextCursor: undefined,
      result: { resourceTemplates: [1], nextCursor: null },
    });
    expect(pageFromResult('prompts/list', { prompts: [], nextCursor: '' }).nextCursor).toBe('');
  });

  it('a non-string nextCursor is a ProtocolError', () => {
    expect(() => pageFromResult('tools/list', { tools: [], nextCursor: 3 })).toThrow(ProtocolError);
  });
});

describe('errors', () => {
  it('PaginationLimitError carries name, message and data', () => {
    const error = new PaginationLimitError({ method: 'tools/list', pages: 16, maxPages: 16, reason: 'max-pages' });
    expect(error.name).toBe('PaginationLimitError');
    expect(error.message).toBe('tools/list: still more pages after 16 pages (maxPages 16)');
    expect(isPaginationError(error)).toBe(true);
    expect(isPaginationError(new Error('x'))).toBe(false);
  });
});
