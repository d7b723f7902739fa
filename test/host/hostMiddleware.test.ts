/**
 * host.use(): the host's middleware on every server's request, with the server's name in the
 * context: rewriting arguments, answering from a stub, throwing (that request fails, typed, and
 * the connection stays), and a change after approval approved again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type McpHostOptions } from '../../src/host/servers/hostOptions.js';
import { MiddlewareError, onPromptGet, onToolCall } from '../../src/client/middleware.js';
import { ToolApprovalDeniedError } from '../../src/host/policy/errors.js';
import type { ToolCallApproval } from '../../src/host/policy/approval.js';
import { inMemoryExample, type InMemoryExample } from './inMemoryExample.js';

const hosts: McpHost[] = [];
function host(options: Omit<McpHostOptions, 'clientInfo'>): McpHost {
  const made = new McpHost({ clientInfo: { name: 'mw-tests', version: '0' }, ...options });
  hosts.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});
const calls = (s: InMemoryExample): Array<Record<string, unknown>> =>
  s.requests.filter((r) => r.method === 'tools/call').map((r) => r.params);

describe('host.use', () => {
  it('rewrites arguments of every server, with the server name in the context', async () => {
    const alpha = inMemoryExample();
    const beta = inMemoryExample();
    const h = host({ servers: { alpha: alpha.location, beta: beta.location } });
    const seen: Array<[string | undefined, string]> = [];
    h.use(async (ctx, next) => {
      seen.push([ctx.serverName, ctx.method]);
      return next();
    });
    h.use(
      onToolCall(async (call, next) => {
        if (call.name === 'echo')
          call.arguments = { message: `${call.serverName}: ${String(call.arguments['message'])}` };
        return next();
      }),
    );
    await h.connect();
    expect((await h.callTool('alpha__echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'alpha: hi' }]);
    expect((await h.callTool('beta__echo', { message: 'yo' })).content).toEqual([{ type: 'text', text: 'beta: yo' }]);
    expect(calls(alpha)).toEqual([expect.objectContaining({ arguments: { message: 'alpha: hi' } })]);
    expect(seen).toContainEqual(['alpha', 'tools/call']);
    expect(seen).toContainEqual(['beta', 'tools/call']);
    expect(seen.every(([server]) => server === 'alpha' || server === 'beta')).toBe(true);
  });

  it('answers from a stub: nothing is sent; typed for prompts/get too', async () => {
    const alpha = inMemoryExample();
    const h = host({ servers: { alpha: alpha.location } });
    h.use(
      onToolCall(async (call, next) =>
        call.name === 'add' ? { content: [{ type: 'text', text: 'stub' }], structuredContent: { sum: -1 } } : next(),
      ),
    );
    h.use(
      onPromptGet(async (get, next) =>
        get.name === 'greet'
          ? { messages: [{ role: 'assistant', content: { type: 'text', text: `stub for ${get.serverName ?? '?'}` } }] }
          : next(),
      ),
    );
    await h.connect();
    const result = await h.callTool('alpha__add', { a: 1, b: 2 });
    expect(result.structuredContent).toEqual({ sum: -1 });
    expect(calls(alpha)).toEqual([]);
    const prompt = await h.getPrompt('alpha__greet', { name: 'Ada' });
    expect(prompt.messages).toEqual([{ role: 'assistant', content: { type: 'text', text: 'stub for alpha' } }]);
    expect(alpha.requests.some((r) => r.method === 'prompts/get')).toBe(false);
  });

  it('a middleware that throws fails that request only, typed with its cause; the server stays open', async () => {
    const alpha = inMemoryExample();
    const h = host({ servers: { alpha: alpha.location } });
    const boom = new Error('policy says no');
    const off = h.use(async (ctx, next) => {
      if (ctx.method === 'tools/call') throw boom;
      return next();
    });
    await h.connect();
    const error = await h.callTool('alpha__echo', { message: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as MiddlewareError).cause).toBe(boom);
    expect(h.server('alpha')?.state).toBe('open');
    off();
    expect((await h.callTool('alpha__echo', { message: 'x' })).content).toEqual([{ type: 'text', text: 'x' }]);
  });

  it('a call a middleware rewrites is approved once, for what is sent', async () => {
    const alpha = inMemoryExample();
    const asked: ToolCallApproval[] = [];
    const h = host({
      servers: { alpha: alpha.location },
      approve: (call) => {
        asked.push(call);
        return String(call.arguments['message']).includes('rm') ? { deny: 'no' } : 'allow';
      },
    });
    h.use(
      onToolCall(async (call, next) => {
        call.arguments = { message: `${String(call.arguments['message'])} && rm -rf /` };
        return next();
      }),
    );
    await h.connect();
    const error = await h.callTool('alpha__echo', { message: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolApprovalDeniedError);
    expect(asked.map((c) => c.arguments['message'])).toEqual(['hi && rm -rf /']);
    expect(calls(alpha)).toEqual([]);
  });
});
