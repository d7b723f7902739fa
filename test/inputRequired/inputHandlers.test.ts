import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, InvalidArgumentError, ProtocolError } from '../../src/errors/errors.js';
import { driveInputRequired } from '../../src/inputRequired/driver.js';
import { InputRequestFailedError } from '../../src/inputRequired/errors.js';
import { fulfilInputRequests } from '../../src/inputRequired/inputHandlers.js';
import { capabilitiesFor, type InputHandlerContext, type InputHandlers } from '../../src/inputRequired/handlers.js';
import type { InputRequest } from '../../src/wire/protocol.js';

const FORM = {
  method: 'elicitation/create',
  params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } },
} as InputRequest;
const URL_REQUEST = {
  method: 'elicitation/create',
  params: { mode: 'url', message: 'Connect your account', url: 'https://mcp.example.com/connect?x=1' },
} as InputRequest;
const SAMPLE = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 10 },
} as InputRequest;
const ROOTS = { method: 'roots/list' } as InputRequest;
const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'Paris' },
  model: 'm-1',
  stopReason: 'endTurn',
} as const;

const fulfil = (handlers: InputHandlers | undefined, requests: Record<string, unknown>, signal?: AbortSignal) =>
  fulfilInputRequests(handlers, requests as Record<string, InputRequest>, { requestMethod: 'tools/call', signal });

async function failure(promise: Promise<unknown>): Promise<InputRequestFailedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputRequestFailedError);
  return error as InputRequestFailedError;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  expect(vi.getTimerCount()).toBe(0);
  vi.useRealTimers();
});

describe('B41: capabilities match the handlers', () => {
  it('(a) no elicitation handler: no elicitation key at all', () => {
    expect(capabilitiesFor(undefined)).toEqual({});
    expect(capabilitiesFor({})).toEqual({});
    const onlyRoots = capabilitiesFor({ roots: { list: () => ({ roots: [] }) } });
    expect(onlyRoots).toEqual({ roots: {} });
    expect(onlyRoots).not.toHaveProperty('elicitation');
    // An empty group declares nothing (an empty `elicitation: {}` would mean form mode).
    expect(capabilitiesFor({ elicitation: {} })).not.toHaveProperty('elicitation');
    expect(capabilitiesFor({ elicitation: { form: undefined, url: undefined } })).toEqual({});
  });

  it('(b) URL-only handler declares {"elicitation":{"url":{}}}; a form request never reaches it', async () => {
    const url = vi.fn(() => ({ action: 'accept' as const }));
    const handlers: InputHandlers = { elicitation: { url } };
    expect(JSON.stringify(capabilitiesFor(handlers))).toBe('{"elicitation":{"url":{}}}');

    const error = await failure(fulfil(handlers, { pick: FORM }));
    expect(error.code).toBe(-33007);
    expect(error.data).toEqual({
      requestMethod: 'tools/call',
      key: 'pick',
      method: 'elicitation/create',
      reason: 'unsupported',
    });
    expect(url).not.toHaveBeenCalled();

    // A request without `mode` is form mode (spec: client/elicitation) and is refused the same way.
    const noMode = {
      method: 'elicitation/create',
      params: { message: '?', requestedSchema: { type: 'object', properties: {} } },
    };
    expect((await failure(fulfil(handlers, { pick: noMode }))).data.reason).toBe('unsupported');
    expect(url).not.toHaveBeenCalled();
  });

  it('(b) through the driver: the call fails without a retry and without calling the handler', async () => {
    const url = vi.fn(() => ({ action: 'accept' as const }));
    const retry = vi.fn();
    const error = await driveInputRequired({
      method: 'tools/call',
      first: { resultType: 'input_required', inputRequests: { pick: FORM }, requestState: 's' },
      retry,
      fulfil: (requests, { signal }) =>
        fulfilInputRequests({ elicitation: { url } }, requests, { requestMethod: 'tools/call', signal }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequestFailedError);
    expect(retry).not.toHaveBeenCalled();
    expect(url).not.toHaveBeenCalled();
  });

  it('form-only and both modes', () => {
    const form = () => ({ action: 'cancel' as const });
    const url = () => ({ action: 'cancel' as const });
    expect(JSON.stringify(capabilitiesFor({ elicitation: { form } }))).toBe('{"elicitation":{"form":{}}}');
    expect(capabilitiesFor({ elicitation: { form, url } })).toEqual({ elicitation: { form: {}, url: {} } });
  });

  it('sampling and roots flags', () => {
    const createMessage = () => SAMPLED;
    expect(capabilitiesFor({ sampling: { createMessage } })).toEqual({ sampling: {} });
    expect(capabilitiesFor({ sampling: { createMessage, tools: true, context: true } })).toEqual({
      sampling: { tools: {}, context: {} },
    });
    expect(capabilitiesFor({ sampling: { createMessage, tools: false } })).toEqual({ sampling: {} });
    expect(capabilitiesFor({ roots: { list: () => ({ roots: [] }) } })).toEqual({ roots: {} });
  });

  it('rejects a registry whose handlers are not functions', () => {
    expect(() => capabilitiesFor({ elicitation: { form: 'yes' } } as never)).toThrow(InvalidArgumentError);
    expect(() => capabilitiesFor({ sampling: {} } as never)).toThrow(/handlers\.sampling\.createMessage/);
    expect(() => capabilitiesFor({ roots: () => ({ roots: [] }) } as never)).toThrow(
      /handlers\.roots: expected \{ list \}/,
    );
  });

  it('(c) a throwing handler fails the call at once with handler_error and the cause', async () => {
    const boom = new Error('UI crashed');
    const form = vi.fn(() => {
      throw boom;
    });
    const error = await failure(fulfil({ elicitation: { form } }, { e1: FORM }));
    expect(error.data).toEqual({
      requestMethod: 'tools/call',
      key: 'e1',
      method: 'elicitation/create',
      reason: 'handler_error',
    });
    expect(error.cause).toBe(boom);
    expect(error.message).toMatch(/UI crashed/);

    const rejecting = vi.fn(async () => Promise.reject(boom));
    expect((await failure(fulfil({ elicitation: { form: rejecting } }, { e1: FORM }))).cause).toBe(boom);
  });

  it('(d) a handler resolving undefined fails the call at once with invalid_result', async () => {
    const form = vi.fn(async () => undefined as never);
    const error = await failure(fulfil({ elicitation: { form } }, { e1: FORM }));
    expect(error.data.reason).toBe('invalid_result');
    expect(error.message).toMatch(/undefined/);
    expect(form).toHaveBeenCalledTimes(1);
  });

  it('(c)/(d) hold for sampling and roots too', async () => {
    const samplingUndefined = await failure(
      fulfil({ sampling: { createMessage: () => undefined as never } }, { s: SAMPLE }),
    );
    expect(samplingUndefined.data).toMatchObject({ method: 'sampling/createMessage', reason: 'invalid_result' });
    const rootsThrow = await failure(
      fulfil(
        {
          roots: {
            list: () => {
              throw new Error('no');
            },
          },
        },
        { r: ROOTS },
      ),
    );
    expect(rootsThrow.data).toMatchObject({ method: 'roots/list', reason: 'handler_error' });
  });
});

describe('fulfilInputRequests', () => {
  it('runs every handler concurrently and keeps the keys', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handlers: InputHandlers = {
      elicitation: {
        form: async (_p, { key }) => {
          started.push(key);
          await gate;
          return { action: 'accept', content: {} };
        },
      },
      sampling: {
        createMessage: async (_p, { key }) => {
          started.push(key);
          await gate;
          return SAMPLED;
        },
      },
      roots: { list: (_p, { key }) => (started.push(key), { roots: [{ uri: 'file:///work', name: 'work' }] }) },
    };
    const promise = fulfil(handlers, { login: FORM, capital: SAMPLE, where: ROOTS });
    await vi.advanceTimersByTimeAsync(0);
    expect(started.sort()).toEqual(['capital', 'login', 'where']);
    release();
    const responses = await promise;
    expect(Object.keys(responses)).toEqual(['login', 'capital', 'where']);
    expect(responses).toEqual({
      login: { action: 'accept', content: {} },
      capital: SAMPLED,
      where: { roots: [{ uri: 'file:///work', name: 'work' }] },
    });
  });

  it('gives each handler its params, key, request method and a signal', async () => {
    const form = vi.fn((_params: unknown, _context: InputHandlerContext) => ({ action: 'decline' as const }));
    await fulfil({ elicitation: { form } }, { login: FORM });
    expect(form.mock.calls[0]?.[0]).toEqual(FORM.params);
    expect(form.mock.calls[0]?.[1]).toMatchObject({ key: 'login', requestMethod: 'tools/call' });
    expect(form.mock.calls[0]?.[1].signal).toBeInstanceOf(AbortSignal);
  });

  it('one failure aborts the other handlers and rejects without waiting for them', async () => {
    let samplingSignal: AbortSignal | undefined;
    const handlers: InputHandlers = {
      elicitation: {
        form: () => {
          throw new Error('nope');
        },
      },
      sampling: {
        createMessage: (_p, { signal }) => {
          samplingSignal = signal;
          return new Promise(() => {});
        },
      },
    };
    const error = await failure(fulfil(handlers, { capital: SAMPLE, login: FORM }));
    expect(error.data.key).toBe('login');
    expect(samplingSignal?.aborted).toBe(true);
  });

  it('checks every entry before calling any handler', async () => {
    const createMessage = vi.fn(() => SAMPLED);
    const error = await failure(fulfil({ sampling: { createMessage } }, { capital: SAMPLE, login: FORM }));
    expect(error.data).toMatchObject({ key: 'login', reason: 'unsupported' });
    expect(createMessage).not.toHaveBeenCalled();
  });

  it("the caller's abort rejects with CancelledError and aborts the handlers", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const promise = fulfil(
      {
        elicitation: {
          form: (_p, { signal }) => {
            seen = signal;
            return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
          },
        },
      },
      { login: FORM },
      controller.signal,
    );
    const caught = promise.catch((e: unknown) => e);
    controller.abort('bye');
    const error = await caught;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe('bye');
    expect(seen?.aborted).toBe(true);
  });

  it('malformed entries are ProtocolErrors and call nothing', async () => {
    const form = vi.fn(() => ({ action: 'accept' as const, content: {} }));
    const handlers: InputHandlers = {
      elicitation: { form },
      sampling: { createMessage: () => SAMPLED },
      roots: { list: () => ({ roots: [] }) },
    };
    const bad: unknown[] = [
      'text',
      { method: 'ping' },
      { method: 'elicitation/create' },
      { method: 'elicitation/create', params: [] },
      { method: 'elicitation/create', params: { mode: 'form', requestedSchema: { type: 'object', properties: {} } } },
      { method: 'elicitation/create', params: { mode: 'form', message: '?' } },
      { method: 'elicitation/create', params: { mode: 'url', message: '?' } },
      { method: 'sampling/createMessage', params: { maxTokens: 1 } },
      { method: 'sampling/createMessage', params: { messages: [] } },
      { method: 'roots/list', params: 'x' },
    ];
    for (const entry of bad) {
      const error = await fulfil(handlers, { k: entry }).catch((e: unknown) => e);
      expect(error, JSON.stringify(entry)).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).message).toMatch(/inputRequests\["k"\]/);
    }
    expect(form).not.toHaveBeenCalled();
  });

  it('unsupported: no handler for a method, an unknown mode, sampling tools without sampling.tools', async () => {
    expect((await failure(fulfil({}, { s: SAMPLE }))).data).toMatchObject({
      method: 'sampling/createMessage',
      reason: 'unsupported',
    });
    expect((await failure(fulfil({}, { r: ROOTS }))).data).toMatchObject({
      method: 'roots/list',
      reason: 'unsupported',
    });
    expect(
      (await failure(fulfil({ elicitation: { form: () => ({ action: 'cancel' }) } }, { u: URL_REQUEST }))).data.reason,
    ).toBe('unsupported');
    const odd = { method: 'elicitation/create', params: { mode: 'voice', message: '?' } };
    expect(
      (await failure(fulfil({ elicitation: { form: () => ({ action: 'cancel' }) } }, { v: odd }))).data.reason,
    ).toBe('unsupported');

    const createMessage = vi.fn(() => SAMPLED);
    const withTools = {
      method: 'sampling/createMessage',
      params: { ...SAMPLE.params, tools: [{ name: 't', inputSchema: { type: 'object' } }] },
    };
    expect((await failure(fulfil({ sampling: { createMessage } }, { s: withTools }))).data.reason).toBe('unsupported');
    expect(createMessage).not.toHaveBeenCalled();
    await expect(fulfil({ sampling: { createMessage, tools: true } }, { s: withTools })).resolves.toEqual({
      s: SAMPLED,
    });
  });

  it('URL mode: accept is sent without content; decline/cancel never carry content', async () => {
    const url = vi.fn(() => ({ action: 'accept' as const, content: { secret: 'x' } }));
    await expect(fulfil({ elicitation: { url } }, { u: URL_REQUEST })).resolves.toEqual({ u: { action: 'accept' } });
    const form = () => ({ action: 'decline' as const, content: { name: 'x' } });
    await expect(fulfil({ elicitation: { form } }, { f: FORM })).resolves.toEqual({ f: { action: 'decline' } });
  });

  it('form accept: content is checked against requestedSchema (required keys and types)', async () => {
    const schemaRequest = {
      method: 'elicitation/create',
      params: {
        message: 'Who?',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            age: { type: 'integer' },
            ok: { type: 'boolean' },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['name'],
        },
      },
    };
    const answer = (content: unknown) =>
      fulfil({ elicitation: { form: () => ({ action: 'accept', content }) as never } }, { f: schemaRequest });
    await expect(answer({ name: 'a', age: 3, ok: true, tags: ['x'] })).resolves.toEqual({
      f: { action: 'accept', content: { name: 'a', age: 3, ok: true, tags: ['x'] } },
    });
    for (const content of [
      {},
      { name: 1 },
      { name: 'a', age: 1.5 },
      { name: 'a', ok: 'yes' },
      { name: 'a', tags: [1] },
      { name: { nested: true } },
      'text',
    ]) {
      expect((await failure(answer(content))).data.reason, JSON.stringify(content)).toBe('invalid_result');
    }
    expect(
      (await failure(fulfil({ elicitation: { form: () => ({ action: 'maybe' }) as never } }, { f: FORM }))).data.reason,
    ).toBe('invalid_result');
  });

  it('sampling and roots results are checked', async () => {
    const bad = [
      { role: 'system', content: {}, model: 'm' },
      { role: 'assistant', content: {} },
      { role: 'assistant', model: 'm', content: 'text' },
    ];
    for (const result of bad) {
      expect(
        (await failure(fulfil({ sampling: { createMessage: () => result as never } }, { s: SAMPLE }))).data.reason,
      ).toBe('invalid_result');
    }
    for (const result of [
      {},
      { roots: [{ uri: 'https://example.com' }] },
      { roots: [{ uri: 'file:///a', name: 3 }] },
    ]) {
      expect((await failure(fulfil({ roots: { list: () => result as never } }, { r: ROOTS }))).data.reason).toBe(
        'invalid_result',
      );
    }
  });

  it('keeps a "__proto__" key as an own key of inputResponses', async () => {
    const requests = JSON.parse('{"__proto__":{"method":"roots/list"}}') as Record<string, InputRequest>;
    const responses = await fulfilInputRequests({ roots: { list: () => ({ roots: [] }) } }, requests, {
      requestMethod: 'tools/call',
    });
    expect(Object.keys(responses)).toEqual(['__proto__']);
    expect(JSON.stringify(responses)).toBe('{"__proto__":{"roots":[]}}');
    expect(Object.getPrototypeOf(responses)).toBe(Object.prototype);
  });
});
