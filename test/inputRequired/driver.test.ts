import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CancelledError,
  InvalidArgumentError,
  ProtocolError,
  RpcError,
  TimeoutError,
} from '../../src/errors/errors.js';
import type { JsonObject } from '../../src/wire/messages.js';
import { DEFAULT_MAX_ROUNDS } from '../../src/inputRequired/limits.js';
import {
  DEFAULT_PAUSE,
  driveInputRequired,
  pauseBeforeRetry,
  type DriveInputRequiredOptions,
  type RetryContext,
} from '../../src/inputRequired/driver.js';
import { InputRequestFailedError, InputRequiredRoundsError } from '../../src/inputRequired/errors.js';
import { fulfilInputRequests } from '../../src/inputRequired/inputHandlers.js';
import type { InputHandlers } from '../../src/inputRequired/handlers.js';
import type { InputRetry } from '../../src/wire/callOptions.js';
import type { InputRequest, InputResponse } from '../../src/wire/protocol.js';

const LOGIN_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Your username?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};
const CONFIRM_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Sure?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  },
};
const CREATED = { resultType: 'complete', content: [{ type: 'text', text: 'created' }] };

/** A retry hook answering with `results` in order, recording what it was given. */
function scriptedRetry(results: JsonObject[]) {
  const calls: Array<{ fields: InputRetry; context: RetryContext; at: number }> = [];
  const hook = vi.fn(async (fields: InputRetry, context: RetryContext) => {
    calls.push({ fields: structuredClone(fields), context, at: Date.now() });
    const next = results.shift();
    if (next === undefined) throw new Error('no more scripted results');
    return next;
  });
  return { hook, calls };
}

/** A fulfil hook that runs the real handler registry. */
function fulfilWith(handlers: InputHandlers, requestMethod = 'tools/call'): DriveInputRequiredOptions['fulfil'] {
  return (requests, { signal }) => fulfilInputRequests(handlers, requests, { requestMethod, signal });
}

const stateOnly = (state: string): JsonObject => ({ resultType: 'input_required', requestState: state });
const asking = (key: string): JsonObject => ({ resultType: 'input_required', inputRequests: { [key]: LOGIN_REQUEST } });
const loginHandlers: InputHandlers = { elicitation: { form: () => ({ action: 'accept', content: { name: 'x' } }) } };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('B39: the shape of each retry (pure driver)', () => {
  it('answers, echoes requestState byte for byte, never sends a stale one, and completes', async () => {
    const form = vi.fn((params: { message: string }) =>
      params.message === 'Your username?'
        ? { action: 'accept' as const, content: { name: '<user-login>' } }
        : { action: 'accept' as const, content: { ok: true } },
    );
    const { hook, calls } = scriptedRetry([
      { resultType: 'input_required', requestState: 's2' },
      { resultType: 'input_required', inputRequests: { confirm: CONFIRM_REQUEST } },
      CREATED,
    ]);
    const first = { resultType: 'input_required', inputRequests: { login: LOGIN_REQUEST }, requestState: 'AbC+/==' };

    const promise = driveInputRequired({
      method: 'tools/call',
      first,
      retry: hook,
      fulfil: fulfilWith({ elicitation: { form } }),
    });
    let settled: JsonObject | undefined;
    void promise.then((result) => (settled = result));
    // Retry 2 (after a state-only result) goes out after the first pause, 100 ms.
    await vi.advanceTimersByTimeAsync(99);
    expect(hook).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);

    expect(settled).toEqual(CREATED);
    expect(hook).toHaveBeenCalledTimes(3);
    const [one, two, three] = calls.map((c) => c.fields);
    expect(one).toEqual({
      inputResponses: { login: { action: 'accept', content: { name: '<user-login>' } } },
      requestState: 'AbC+/==',
    });
    expect(one?.requestState).toBe('AbC+/==');
    expect(Object.keys(one ?? {})).toEqual(['inputResponses', 'requestState']);
    expect(two).toEqual({ requestState: 's2' });
    expect(two).not.toHaveProperty('inputResponses');
    expect(three).toEqual({ inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
    expect(three).not.toHaveProperty('requestState');
    expect(calls.map((c) => c.context.round)).toEqual([1, 2, 3]);
    expect(form).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('echoes an odd requestState unchanged (whitespace, unicode, JSON-looking text)', async () => {
    const state = ' {"a":1}\n\u00e9\u{1F600}+/== ';
    const { hook, calls } = scriptedRetry([CREATED]);
    const done = driveInputRequired({
      method: 'prompts/get',
      first: stateOnly(state),
      retry: hook,
      fulfil: fulfilWith({}),
    });
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(calls[0]?.fields).toEqual({ requestState: state });
    expect(calls[0]?.fields.requestState === state).toBe(true);
  });

  it('returns a complete first result untouched, and treats a missing resultType as complete', async () => {
    const retry = vi.fn();
    const fulfil = vi.fn();
    const first = { content: [] };
    await expect(driveInputRequired({ method: 'tools/call', first, retry, fulfil })).resolves.toBe(first);
    expect(retry).not.toHaveBeenCalled();
    expect(fulfil).not.toHaveBeenCalled();
  });

  it('sends only the requested keys, in the server order, even if fulfil returns extras', async () => {
    const { hook, calls } = scriptedRetry([CREATED]);
    const first = { resultType: 'input_required', inputRequests: { b: LOGIN_REQUEST, a: LOGIN_REQUEST } };
    const fulfil = async () =>
      ({ a: { action: 'decline' }, extra: { action: 'cancel' }, b: { action: 'cancel' } }) as Record<
        string,
        InputResponse
      >;
    await driveInputRequired({ method: 'tools/call', first, retry: hook, fulfil });
    expect(Object.keys(calls[0]?.fields.inputResponses ?? {})).toEqual(['b', 'a']);
  });

  it('fails with InputRequestFailedError when fulfil leaves a key unanswered', async () => {
    const { hook } = scriptedRetry([CREATED]);
    const first = { resultType: 'input_required', inputRequests: { a: LOGIN_REQUEST, b: LOGIN_REQUEST } };
    const error = await driveInputRequired({
      method: 'tools/call',
      first,
      retry: hook,
      fulfil: async () => ({ a: { action: 'decline' } }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequestFailedError);
    expect((error as InputRequestFailedError).data).toEqual({
      requestMethod: 'tools/call',
      key: 'b',
      method: 'elicitation/create',
      reason: 'invalid_result',
    });
    expect(hook).not.toHaveBeenCalled();
  });

  it('passes hook errors (e.g. an RpcError from a retry) through unchanged', async () => {
    const rpc = new RpcError({ code: -32602, message: 'bad state' }, 'tools/call');
    const caught = driveInputRequired({
      method: 'tools/call',
      first: stateOnly('s'),
      retry: () => Promise.reject(rpc),
      fulfil: vi.fn(),
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(await caught).toBe(rpc);
  });
});

describe('protocol checks', () => {
  it('rejects an unknown resultType, first or later, with ProtocolError', async () => {
    const first = { resultType: 'pending' };
    const e1 = await driveInputRequired({ method: 'tools/call', first, retry: vi.fn(), fulfil: vi.fn() }).catch(
      (e: unknown) => e,
    );
    expect(e1).toBeInstanceOf(ProtocolError);
    expect((e1 as ProtocolError).code).toBe(-32600);
    expect((e1 as ProtocolError).data).toMatchObject({ method: 'tools/call', value: first });

    const { hook } = scriptedRetry([{ resultType: 'later' }]);
    const caught = driveInputRequired({
      method: 'resources/read',
      first: stateOnly('s'),
      retry: hook,
      fulfil: vi.fn(),
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    const e2 = await caught;
    expect(e2).toBeInstanceOf(ProtocolError);
    expect((e2 as Error).message).toMatch(/unknown resultType "later"/);
  });

  it('rejects an input_required result with neither inputRequests nor requestState', async () => {
    for (const first of [{ resultType: 'input_required' }, { resultType: 'input_required', inputRequests: {} }]) {
      const error = await driveInputRequired({ method: 'tools/call', first, retry: vi.fn(), fulfil: vi.fn() }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
    }
  });

  it('rejects wrongly typed inputRequests / requestState', async () => {
    for (const first of [
      { resultType: 'input_required', inputRequests: [LOGIN_REQUEST] },
      { resultType: 'input_required', requestState: 42 },
    ]) {
      const error = await driveInputRequired({ method: 'tools/call', first, retry: vi.fn(), fulfil: vi.fn() }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
    }
  });

  it('rejects bad maxRounds and pause values with InvalidArgumentError', async () => {
    const base = { method: 'tools/call', first: CREATED, retry: vi.fn(), fulfil: vi.fn() };
    await expect(driveInputRequired({ ...base, maxRounds: -1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(driveInputRequired({ ...base, maxRounds: 1.5 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(driveInputRequired({ ...base, pause: { factor: 0.5 } })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(driveInputRequired({ ...base, pause: { initialMs: Number.NaN } })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
  });
});

describe('round cap', () => {
  it(`stops after ${DEFAULT_MAX_ROUNDS} retries by default with rounds and lastResult`, async () => {
    const results = Array.from({ length: 20 }, (_, i) => asking(`k${i}`));
    const { hook } = scriptedRetry([...results]);
    const handler = vi.fn(() => ({ action: 'accept' as const, content: { name: 'x' } }));
    const error = await driveInputRequired({
      method: 'tools/call',
      first: asking('first'),
      retry: hook,
      fulfil: fulfilWith({ elicitation: { form: handler } }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequiredRoundsError);
    const rounds = error as InputRequiredRoundsError;
    expect(rounds.code).toBe(-33006);
    expect(rounds.local).toBe(true);
    expect(rounds.rounds).toBe(10);
    expect(rounds.data.rounds).toBe(10);
    expect(rounds.data.method).toBe('tools/call');
    expect(rounds.lastResult).toBe(results[9]);
    expect(hook).toHaveBeenCalledTimes(10);
    // The requests of the result that hit the cap are not shown to the user.
    expect(handler).toHaveBeenCalledTimes(10);
  });

  it('honours a custom maxRounds, including state-only rounds with pauses', async () => {
    const { hook } = scriptedRetry([stateOnly('a'), stateOnly('b'), stateOnly('c')]);
    const promise = driveInputRequired({
      method: 'tools/call',
      first: stateOnly('0'),
      retry: hook,
      fulfil: vi.fn(),
      maxRounds: 2,
    });
    const caught = promise.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = (await caught) as InputRequiredRoundsError;
    expect(error).toBeInstanceOf(InputRequiredRoundsError);
    expect(error.data).toEqual({ method: 'tools/call', rounds: 2, lastResult: stateOnly('b') });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('maxRounds 0 fails on the first input_required without calling any hook', async () => {
    const retry = vi.fn();
    const fulfil = vi.fn();
    const first = asking('x');
    const error = (await driveInputRequired({ method: 'prompts/get', first, retry, fulfil, maxRounds: 0 }).catch(
      (e: unknown) => e,
    )) as InputRequiredRoundsError;
    expect(error.data).toEqual({ method: 'prompts/get', rounds: 0, lastResult: first });
    expect(retry).not.toHaveBeenCalled();
    expect(fulfil).not.toHaveBeenCalled();
  });
});

describe('pauses between state-only retries', () => {
  it('default: 100, 200, 400, 800 ms, the first retry paced too; inputRequests reset the growth', async () => {
    const { hook, calls } = scriptedRetry([
      stateOnly('2'),
      stateOnly('3'),
      stateOnly('4'),
      stateOnly('5'),
      asking('k'),
      stateOnly('7'),
      stateOnly('8'),
      CREATED,
    ]);
    const start = Date.now();
    const promise = driveInputRequired({
      method: 'tools/call',
      first: stateOnly('1'),
      retry: hook,
      fulfil: fulfilWith(loginHandlers),
    });
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(promise).resolves.toEqual(CREATED);
    expect(calls.map((c) => c.at - start)).toEqual([100, 300, 700, 1500, 3100, 3100, 3200, 3400]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('pauseBeforeRetry follows the policy and caps at maxMs', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => pauseBeforeRetry(n))).toEqual([
      100, 200, 400, 800, 1600, 2000, 2000, 2000,
    ]);
    expect([1, 2, 3].map((n) => pauseBeforeRetry(n, { ...DEFAULT_PAUSE, initialMs: 50, factor: 3 }))).toEqual([
      50, 150, 450,
    ]);
    expect([1, 2, 3].map((n) => pauseBeforeRetry(n, { ...DEFAULT_PAUSE, immediateFirst: true }))).toEqual([
      0, 100, 200,
    ]);
  });

  it('uses injected timers when given', async () => {
    const timers = {
      setTimeout: vi.fn((cb: () => void, ms: number) => setTimeout(cb, ms)),
      clearTimeout: vi.fn((h: unknown) => clearTimeout(h as never)),
    };
    const { hook } = scriptedRetry([stateOnly('b'), CREATED]);
    const promise = driveInputRequired({
      method: 'tools/call',
      first: stateOnly('a'),
      retry: hook,
      fulfil: vi.fn(),
      timers,
    });
    await vi.advanceTimersByTimeAsync(300);
    await expect(promise).resolves.toEqual(CREATED);
    expect(timers.setTimeout).toHaveBeenCalledWith(expect.any(Function), 100);
    expect(timers.setTimeout).toHaveBeenCalledWith(expect.any(Function), 200);
  });
});

describe('cancellation and budget', () => {
  it('abort during a handler rejects with CancelledError at once, aborts the handler, leaves no timer', async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const form = vi.fn((_params: unknown, context: { signal: AbortSignal }) => {
      handlerSignal = context.signal;
      return new Promise<never>(() => {}); // ignores its signal on purpose
    });
    const { hook } = scriptedRetry([CREATED]);
    const caught = driveInputRequired({
      method: 'tools/call',
      first: asking('login'),
      retry: hook,
      fulfil: fulfilWith({ elicitation: { form } }),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    expect(form).toHaveBeenCalledTimes(1);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await caught;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).code).toBe(-32800);
    expect((error as CancelledError).cause).toBe(reason);
    expect((error as CancelledError).data).toEqual({ method: 'tools/call' });
    expect(handlerSignal?.aborted).toBe(true);
    expect(hook).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('abort during a pause rejects with CancelledError at once and clears the pause timer', async () => {
    const controller = new AbortController();
    const { hook } = scriptedRetry([stateOnly('b'), CREATED]);
    const caught = driveInputRequired({
      method: 'tools/call',
      first: stateOnly('a'),
      retry: hook,
      fulfil: vi.fn(),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(150); // retry 1 went out at 100 ms; now inside the 200 ms pause
    expect(hook).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort('stop');
    const error = await caught;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe('stop');
    expect(hook).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('abort during a retry rejects at once even if the hook ignores its signal', async () => {
    const controller = new AbortController();
    let retrySignal: AbortSignal | undefined;
    const retry = vi.fn((_fields: InputRetry, context: RetryContext) => {
      retrySignal = context.signal;
      return new Promise<JsonObject>(() => {});
    });
    const caught = driveInputRequired({
      method: 'tools/call',
      first: stateOnly('a'),
      retry,
      fulfil: vi.fn(),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(retry).toHaveBeenCalledTimes(1);
    controller.abort();
    expect(await caught).toBeInstanceOf(CancelledError);
    expect(retrySignal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an already-aborted signal fails before any hook runs', async () => {
    const retry = vi.fn();
    const fulfil = vi.fn();
    const error = await driveInputRequired({
      method: 'tools/call',
      first: asking('k'),
      retry,
      fulfil,
      signal: AbortSignal.abort('early'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(retry).not.toHaveBeenCalled();
    expect(fulfil).not.toHaveBeenCalled();
  });

  it("an abort whose reason is an mcp-live error (the caller's deadline) surfaces that error", async () => {
    const controller = new AbortController();
    const timeout = new TimeoutError({ method: 'tools/call', timeoutMs: 30, kind: 'total' });
    const caught = driveInputRequired({
      method: 'tools/call',
      first: asking('k'),
      retry: vi.fn(),
      fulfil: () => new Promise(() => {}),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(timeout), 30);
    await vi.advanceTimersByTimeAsync(30);
    expect(await caught).toBe(timeout);
  });

  it('deadline: a hanging handler fails with TimeoutError(kind total) when the budget runs out', async () => {
    const clock = { now: () => Date.now() };
    let handlerSignal: AbortSignal | undefined;
    const form = (_p: unknown, context: { signal: AbortSignal }) => {
      handlerSignal = context.signal;
      return new Promise<never>(() => {});
    };
    const caught = driveInputRequired({
      method: 'tools/call',
      first: asking('k'),
      retry: vi.fn(),
      fulfil: fulfilWith({ elicitation: { form } }),
      deadline: { at: clock.now() + 1_000, totalTimeoutMs: 1_000 },
      clock,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(handlerSignal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await caught;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).data).toEqual({ method: 'tools/call', timeoutMs: 1_000, kind: 'total' });
    expect(handlerSignal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('deadline: a pause that would end after the deadline fails at once; retries get the remaining budget', async () => {
    const clock = { now: () => Date.now() };
    const { hook, calls } = scriptedRetry([stateOnly('b'), CREATED]);
    const caught = driveInputRequired({
      method: 'tools/call',
      first: stateOnly('a'),
      retry: hook,
      fulfil: vi.fn(),
      deadline: { at: clock.now() + 250, totalTimeoutMs: 250 },
      clock,
    }).catch((e: unknown) => e);
    // Retry 1 after 100 ms, with 150 ms left; the 200 ms pause before retry 2 would end past the deadline.
    await vi.advanceTimersByTimeAsync(100);
    const error = await caught;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.context.remainingMs).toBe(150);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('deadline already past: fails before any hook runs', async () => {
    const retry = vi.fn();
    const error = await driveInputRequired({
      method: 'tools/call',
      first: stateOnly('a'),
      retry,
      fulfil: vi.fn(),
      deadline: { at: 0, totalTimeoutMs: 10 },
      clock: { now: () => 10 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(retry).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears the deadline timer on success', async () => {
    const clock = { now: () => Date.now() };
    const { hook } = scriptedRetry([CREATED]);
    await driveInputRequired({
      method: 'tools/call',
      first: asking('k'),
      retry: hook,
      fulfil: fulfilWith(loginHandlers),
      deadline: { at: clock.now() + 60_000, totalTimeoutMs: 60_000 },
      clock,
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a synchronously throwing hook rejects the call (no unhandled throw)', async () => {
    const boom = new Error('sync');
    const fulfil = (() => {
      throw boom;
    }) as unknown as (requests: Record<string, InputRequest>) => Promise<Record<string, InputResponse>>;
    await expect(driveInputRequired({ method: 'tools/call', first: asking('k'), retry: vi.fn(), fulfil })).rejects.toBe(
      boom,
    );
  });
});
