/**
 * A completer made before the completion code has loaded (a process's first): on a fresh copy
 * of the module (`vi.resetModules()`), calls made while it loads keep their order, the
 * superseded ones say so, and the last one gets its answer.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../src/wire/messages.js';
import type { CompleterHost } from '../../src/completion/completer.js';

type Fresh = typeof import('../../src/completion/completer.js');
let fresh: Fresh;

beforeEach(async () => {
  vi.resetModules();
  fresh = await import('../../src/completion/completer.js');
});

function host(answer: (params: JsonObject) => JsonObject) {
  const sent: JsonObject[] = [];
  const completerHost: CompleterHost = {
    capabilities: () => ({ completions: {} }),
    send: async (params) => {
      sent.push(params);
      return answer(params);
    },
    onError: () => {},
    clock: { now: () => Date.now() },
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (handle) => clearTimeout(handle as never) },
  };
  return { completerHost, sent };
}

const echo = (params: JsonObject): JsonObject => ({
  completion: { values: [`${(params['argument'] as { value: string }).value}!`] },
});

describe('a completer made before its code has loaded', () => {
  it('answers the last of a burst of calls made while it loads; the others resolve superseded, in order', async () => {
    const { completerHost, sent } = host(echo);
    const completer = fresh.createCompleter(completerHost, { type: 'ref/prompt', name: 'greet' }, { debounceMs: 0 });
    expect(completer.ref).toEqual({ type: 'ref/prompt', name: 'greet' });
    const settled: string[] = [];
    const a = completer.complete('name', 'a').then((o) => (settled.push('a'), o));
    const b = completer.complete('name', 'al').then((o) => (settled.push('b'), o));
    const c = completer.complete('name', 'ali').then((o) => (settled.push('c'), o));
    expect(await a).toEqual({ status: 'superseded' });
    expect(await b).toEqual({ status: 'superseded' });
    expect(await c).toEqual({ status: 'completed', values: ['ali!'], trimmed: 0, source: 'server' });
    expect(settled).toEqual(['a', 'b', 'c']);
    // Superseded while waiting for the code: never sent.
    expect(sent.map((p) => (p['argument'] as { value: string }).value)).toEqual(['ali']);
  });

  it('a call whose signal aborts while it waits for the code rejects CancelledError; nothing is sent', async () => {
    const { completerHost, sent } = host(echo);
    const completer = fresh.createCompleter(completerHost, { type: 'ref/prompt', name: 'greet' }, { debounceMs: 0 });
    const controller = new AbortController();
    const pending = completer.complete('name', 'a', {}, { signal: controller.signal });
    controller.abort('typed elsewhere');
    await expect(pending).rejects.toMatchObject({ code: -32800 });
    expect(await completer.complete('name', 'b')).toMatchObject({ status: 'completed', values: ['b!'] });
    expect(sent.map((p) => (p['argument'] as { value: string }).value)).toEqual(['b']);
  });

  it('checks its ref and options at once, before anything loads', () => {
    const { completerHost } = host(echo);
    expect(() => fresh.createCompleter(completerHost, { type: 'ref/prompt', name: '' })).toThrow(
      expect.objectContaining({ code: -32602 }),
    );
    expect(() =>
      fresh.createCompleter(completerHost, { type: 'ref/prompt', name: 'greet' }, { debounceMs: -1 }),
    ).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it('close() before it has loaded: later calls resolve superseded and nothing is sent', async () => {
    const { completerHost, sent } = host(echo);
    const completer = fresh.createCompleter(completerHost, { type: 'ref/prompt', name: 'greet' }, { debounceMs: 0 });
    const pending = completer.complete('name', 'a');
    completer.close();
    expect(await pending).toEqual({ status: 'superseded' });
    expect(await completer.complete('name', 'b')).toEqual({ status: 'superseded' });
    expect(sent).toEqual([]);
  });
});
