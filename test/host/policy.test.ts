/**
 * The host's policy layer against example servers in this process: approval (allow, deny,
 * timeout, an approval bound to another call), presets on trusted and untrusted servers, the
 * elicitation prompt, overrides to the wire and back, named views with their own events, and
 * the configuration file's policy fields.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type HostEvent, type McpHostOptions } from '../../src/host/servers/hostOptions.js';
import { HostConfigError, HostRoutingError } from '../../src/host/catalog/errors.js';
import { CancelledError } from '../../src/errors/errors.js';
import { ErrorCode } from '../../src/errors/codes.js';
import { parseHostConfig } from '../../src/host/servers/config.js';
import {
  errorToolResult,
  toAnthropicToolResult,
  toOpenAiChatToolMessage,
} from '../../src/host/models/modelToolResults.js';
import { toAnthropicTools } from '../../src/host/models/modelTools.js';
import {
  ToolApprovalDeniedError,
  isToolApprovalDeniedError,
  type ToolApprovalDeniedReason,
} from '../../src/host/policy/errors.js';
import type { ApprovalBinding, ApproveHook, ToolCallApproval } from '../../src/host/policy/approval.js';
import { approvalPreset } from '../../src/host/policy/presets.js';
import { approveWithElicitation } from '../../src/host/policy/elicitApproval.js';
import { argumentsHash, canonicalJson } from '../../src/host/policy/argumentsHash.js';
import type { HostViewEvent } from '../../src/host/views.js';
import type { FormElicitParams } from '../../src/inputRequired/handlers.js';
import { inMemoryExample, type InMemoryExample } from './inMemoryExample.js';

const clientInfo = { name: 'policy-tests', version: '0.0.0' };
const hosts: McpHost[] = [];

function host(options: Omit<McpHostOptions, 'clientInfo'>): McpHost {
  const made = new McpHost({ clientInfo, ...options });
  hosts.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

function calls(server: InMemoryExample): Array<Record<string, unknown>> {
  return server.requests.filter((r) => r.method === 'tools/call').map((r) => r.params);
}

async function denial(promise: Promise<unknown>): Promise<ToolApprovalDeniedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolApprovalDeniedError);
  return error as ToolApprovalDeniedError;
}

describe('approval', () => {
  it('allows: the hook sees the call (server, names, final arguments, annotations, trust, binding) and the call goes', async () => {
    const alpha = inMemoryExample();
    const asked: ToolCallApproval[] = [];
    const h = host({
      servers: { alpha: alpha.location },
      approve: (call) => {
        asked.push(call);
        return 'allow';
      },
    });
    await h.connect();
    const result = await h.callTool('alpha__echo', { message: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(asked).toHaveLength(1);
    const call = asked[0] as ToolCallApproval;
    expect(call).toMatchObject({
      server: 'alpha',
      name: 'echo',
      exposedName: 'alpha__echo',
      arguments: { message: 'hi' },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      trusted: false,
      // Not trusted: the server's readOnlyHint is not acted on.
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    });
    expect(call.binding).toMatchObject({
      server: 'alpha',
      name: 'echo',
      argumentsHash: argumentsHash({ message: 'hi' }),
    });
    expect(Object.isFrozen(call.arguments)).toBe(true);
    expect(calls(alpha)).toEqual([expect.objectContaining({ name: 'echo', arguments: { message: 'hi' } })]);
  });

  it('denies: nothing is sent, the error has its own code, and the model reads a refusal, not a tool failure', async () => {
    const alpha = inMemoryExample();
    const h = host({ servers: { alpha: alpha.location }, approve: () => ({ deny: 'not on a Friday' }) });
    await h.connect();
    const error = await denial(h.callTool('alpha__echo', { message: 'hi' }));
    expect(error.code).toBe(ErrorCode.ToolApprovalDenied);
    expect(error.code).toBe(-33052);
    expect(isToolApprovalDeniedError(error)).toBe(true);
    expect(error.data).toMatchObject({
      reason: 'denied',
      server: 'alpha',
      name: 'echo',
      exposedName: 'alpha__echo',
      message: 'not on a Friday',
      deniedBy: 'policy',
    });
    expect(calls(alpha)).toEqual([]);

    const result = errorToolResult(error);
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      {
        type: 'text',
        text: "Running alpha__echo is not allowed by the host's policy: not on a Friday. It was not run.",
      },
    ]);
    expect(toAnthropicToolResult(result, 'toolu_1')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        {
          type: 'text',
          text: "Running alpha__echo is not allowed by the host's policy: not on a Friday. It was not run.",
        },
      ],
    });
    expect(toOpenAiChatToolMessage(result, 'call_1').content).not.toMatch(/^Error:/);
    // A real failure still reads as one.
    expect(errorToolResult(new Error('boom')).isError).toBe(true);
  });

  it("a bare 'deny' and a server's own hook: the server's approve replaces the host's for that server", async () => {
    const alpha = inMemoryExample();
    const beta = inMemoryExample();
    const h = host({
      servers: { alpha: alpha.location, beta: { ...beta.location, approve: () => 'allow' } },
      approve: () => 'deny',
    });
    await h.connect();
    const error = await denial(h.callTool('alpha__echo', { message: 'a' }));
    expect(error.data.message).toBeUndefined();
    expect(errorToolResult(error).content).toEqual([
      { type: 'text', text: "Running alpha__echo is not allowed by the host's policy. It was not run." },
    ]);
    expect((await h.callTool('beta__echo', { message: 'b' })).content).toEqual([{ type: 'text', text: 'b' }]);
    expect(calls(alpha)).toEqual([]);
  });

  it('times out: an approval that does not come is a denial, and the hook is told to stop asking', async () => {
    const alpha = inMemoryExample();
    let signal: AbortSignal | undefined;
    const h = host({
      servers: { alpha: alpha.location },
      approvalTimeoutMs: 25,
      approve: (_call, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    });
    await h.connect();
    const error = await denial(h.callTool('alpha__echo', { message: 'hi' }));
    expect(error.data).toMatchObject({ reason: 'timeout', deniedBy: 'timeout', timeoutMs: 25 });
    expect(signal?.aborted).toBe(true);
    expect(errorToolResult(error).content[0]).toMatchObject({
      text: expect.stringMatching(/^alpha__echo was not run: no approval came/),
    });
    expect(calls(alpha)).toEqual([]);
  });

  it('an approval bound to other arguments, or to another call, does not apply', async () => {
    const alpha = inMemoryExample();
    let first: ApprovalBinding | undefined;
    const hook: ApproveHook = (call) => {
      if (first === undefined) {
        first = call.binding;
        return { allow: call.binding }; // its own binding: applies
      }
      return { allow: first }; // a UI answering with the approval of an earlier prompt
    };
    const h = host({ servers: { alpha: alpha.location }, approve: hook });
    await h.connect();
    expect((await h.callTool('alpha__echo', { message: 'first' })).content).toEqual([{ type: 'text', text: 'first' }]);
    // Other arguments.
    const other = await denial(h.callTool('alpha__echo', { message: 'rm -rf /' }));
    expect(other.data.reason).toBe<ToolApprovalDeniedReason>('not-bound');
    // The same arguments, but another call: an approval is for one call only.
    const again = await denial(h.callTool('alpha__echo', { message: 'first' }));
    expect(again.data.reason).toBe('not-bound');
    expect(calls(alpha).map((c) => (c['arguments'] as { message: string }).message)).toEqual(['first']);
  });

  it('a hook that throws or answers nonsense denies; a cancelled call is a CancelledError, not a denial', async () => {
    const alpha = inMemoryExample();
    let answer: () => unknown = () => {
      throw new Error('policy engine down');
    };
    const h = host({ servers: { alpha: alpha.location }, approve: () => answer() as 'allow' });
    await h.connect();
    const thrown = await denial(h.callTool('alpha__echo', { message: 'x' }));
    expect(thrown.data.reason).toBe('failed');
    expect((thrown.cause as Error).message).toBe('policy engine down');
    answer = () => 'yes please';
    expect((await denial(h.callTool('alpha__echo', { message: 'x' }))).data.reason).toBe('failed');

    answer = () => new Promise(() => {});
    const controller = new AbortController();
    const pending = h.callTool('alpha__echo', { message: 'x' }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(calls(alpha)).toEqual([]);
  });

  it('arguments hash canonically: key order does not matter, values do', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: null }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":null,"d":2}]}');
    expect(argumentsHash({ a: 1, b: 2 })).toBe(argumentsHash({ b: 2, a: 1 }));
    expect(argumentsHash({ a: 1 })).not.toBe(argumentsHash({ a: '1' }));
  });
});

describe('presets', () => {
  function asking(): { hook: ApproveHook; asked: string[] } {
    const asked: string[] = [];
    return {
      asked,
      hook: (call) => {
        asked.push(call.exposedName);
        return 'deny';
      },
    };
  }

  it('on a trusted server the annotations decide; on an untrusted one every tool is asked about', async () => {
    const trustedServer = inMemoryExample();
    const untrustedServer = inMemoryExample();
    const { hook, asked } = asking();
    const h = host({
      servers: {
        good: { ...trustedServer.location, trusted: true },
        other: untrustedServer.location,
      },
      approve: approvalPreset('ask-destructive', hook),
    });
    await h.connect();
    // update_note says destructiveHint: false, echo readOnlyHint: true.
    await h.callTool('good__update_note', { text: 'n' });
    await h.callTool('good__echo', { message: 'e' });
    expect(asked).toEqual([]);
    // The same claims from a server that is not trusted are hints only.
    await denial(h.callTool('other__update_note', { text: 'n' }));
    await denial(h.callTool('other__echo', { message: 'e' }));
    expect(asked).toEqual(['other__update_note', 'other__echo']);
    expect(calls(trustedServer).map((c) => c['name'])).toEqual(['update_note', 'echo']);
    expect(calls(untrustedServer)).toEqual([]);
  });

  it("the configuration's own annotations (overrides) count on any server; the other presets", async () => {
    const server = inMemoryExample();
    const { hook, asked } = asking();
    const h = host({
      servers: {
        s: { ...server.location, overrides: { echo: { annotations: { readOnlyHint: true } } } },
      },
      approve: approvalPreset('allow-read-only', hook),
    });
    await h.connect();
    await h.callTool('s__echo', { message: 'e' }); // the host says read-only: runs
    await denial(h.callTool('s__update_note', { text: 'n' })); // the server's claim is not enough
    expect(asked).toEqual(['s__update_note']);

    const call = { hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } };
    const signal = new AbortController().signal;
    const run = (preset: Parameters<typeof approvalPreset>[0], ask?: ApproveHook): unknown =>
      approvalPreset(preset, ask)(call as ToolCallApproval, { signal });
    expect(run('deny-destructive')).toEqual({ deny: 'deny-destructive: the tool may be destructive', by: 'preset' });
    expect(run('ask-all')).toEqual({ deny: 'ask-all: nobody to ask', by: 'preset' });
    expect(run('ask-all', () => 'allow')).toBe('allow');
    expect(() => approvalPreset('yolo' as 'ask-all')).toThrow(/expected one of/);
  });
});

describe('approval through an elicitation handler', () => {
  it('asks in form mode; accept with approve: true allows, decline and cancel deny', async () => {
    const server = inMemoryExample();
    const asked: FormElicitParams[] = [];
    let action: 'accept' | 'decline' | 'cancel' = 'accept';
    const h = host({
      servers: { s: server.location },
      approve: approveWithElicitation((params, context) => {
        asked.push(params);
        expect(context.key).toBe('approval');
        expect(context.requestMethod).toBe('tools/call');
        return action === 'accept' ? { action, content: { approve: true } } : { action };
      }),
    });
    await h.connect();
    await h.callTool('s__echo', { message: 'yes' });
    expect(asked[0]).toMatchObject({
      mode: 'form',
      message: 'Allow s to run echo with {"message":"yes"}?',
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
    });
    action = 'decline';
    const declined = await denial(h.callTool('s__echo', { message: 'no' }));
    expect(declined.data).toMatchObject({ reason: 'denied', deniedBy: 'user' });
    expect(errorToolResult(declined).content).toEqual([
      { type: 'text', text: 'The user declined to run s__echo. It was not run.' },
    ]);
    action = 'cancel';
    expect((await denial(h.callTool('s__echo', { message: 'no' }))).data.message).toBe(
      'the user dismissed the request',
    );
    expect(calls(server).map((c) => c['arguments'])).toEqual([{ message: 'yes' }]);
  });
});

describe('overrides', () => {
  it('round-trip: the model sees the exposed name and a schema without the hidden argument; the wire gets the original name and the default', async () => {
    const server = inMemoryExample();
    const h = host({
      servers: {
        calc: {
          ...server.location,
          overrides: {
            add: { name: 'plus_forty', description: 'Adds 40 to a.', defaults: { b: 40 }, hide: ['b'] },
            echo: { title: 'Say', defaults: { message: 'hello' } },
          },
        },
      },
    });
    await h.connect();
    const tool = h.tools().find((t) => t.tool.name === 'add');
    expect(tool?.exposedName).toBe('calc__plus_forty');
    expect(tool?.tool.description).toBe('Adds two numbers.'); // what the server listed, unchanged
    const [forModel] = toAnthropicTools(h.tools().filter((t) => t.tool.name === 'add'));
    expect(forModel).toMatchObject({
      name: 'calc__plus_forty',
      description: 'Adds 40 to a.',
      input_schema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
    });
    expect(Object.keys((forModel?.input_schema.properties ?? {}) as object)).toEqual(['a']);

    // A value the model sends for a hidden argument is replaced by the default.
    const result = await h.callTool('calc__plus_forty', { a: 2, b: 1000 });
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(calls(server)).toEqual([expect.objectContaining({ name: 'add', arguments: { b: 40, a: 2 } })]);
    // A default that is not hidden fills only what the model left out.
    expect((await h.callTool('calc__echo', {})).content).toEqual([{ type: 'text', text: 'hello' }]);
    expect((await h.callTool('calc__echo', { message: 'mine' })).content).toEqual([{ type: 'text', text: 'mine' }]);
    // The original name is unknown as an exposed name; { server, name } takes the original.
    await expect(h.callTool('calc__add', { a: 1 })).rejects.toBeInstanceOf(HostRoutingError);
    expect((await h.callTool({ server: 'calc', name: 'add' }, { a: 1 })).structuredContent).toEqual({ sum: 41 });
  });

  it('filters apply to the names after overrides; a deny of the original name still holds', async () => {
    const server = inMemoryExample();
    const h = host({
      servers: {
        s: {
          ...server.location,
          overrides: { add: { name: 'sum' }, update_note: { name: 'write_note' } },
          tools: { allow: ['sum', 'echo', 'write_note'], deny: ['update_note'] },
        },
      },
    });
    await h.connect();
    expect(h.tools().map((t) => t.exposedName)).toEqual(['s__echo', 's__sum']);
  });

  it('malformed overrides are refused, naming the server and the field', () => {
    const { location } = inMemoryExample();
    expect(() => host({ servers: { s: { ...location, overrides: { add: { hide: ['b'] } } } } })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ name: 'servers.s.overrides.add.hide[0]' }) }),
    );
    expect(() => host({ servers: { s: { ...location, overrides: { add: { nmae: 'x' } as object } } } })).toThrow(
      /servers\.s\.overrides\.add\.nmae/,
    );
  });
});

describe('views', () => {
  it('two views on one host: each its own subset, its own events, and calls only to its tools', async () => {
    const alpha = inMemoryExample();
    const beta = inMemoryExample();
    const h = host({
      servers: { alpha: alpha.location, beta: beta.location },
      views: { triage: { servers: ['alpha'] } },
    });
    const reader = h.view('reader', { servers: ['beta'], tools: ['*__echo', 'beta__get_*'] });
    const triage = h.view('triage');
    expect(h.views.map((v) => v.name)).toEqual(['triage', 'reader']);
    const triageEvents: HostViewEvent[] = [];
    const readerEvents: HostViewEvent[] = [];
    triage.on((e) => triageEvents.push(e));
    reader.on((e) => readerEvents.push(e));
    await h.connect();

    expect(reader.tools().map((t) => t.exposedName)).toEqual(['beta__echo', 'beta__get_item_link']);
    expect(triage.tools().every((t) => t.server === 'alpha')).toBe(true);
    expect(triage.tools().length).toBe(h.tools().length / 2);
    expect(triageEvents.filter((e) => e.type === 'state').map((e) => e.type === 'state' && e.server)).toEqual([
      'alpha',
      'alpha',
    ]);

    // A change on alpha is triage's event only.
    triageEvents.length = 0;
    readerEvents.length = 0;
    const hostEvents: HostEvent[] = [];
    h.on((e) => hostEvents.push(e));
    await triage.callTool('alpha__add_prompt', { name: 'fresh', text: 'about {topic}' });
    await vi.waitFor(() => expect(triage.prompts().some((p) => p.prompt.name === 'fresh')).toBe(true));
    expect(triageEvents).toEqual([{ type: 'catalog', kinds: ['prompts'] }]);
    expect(readerEvents).toEqual([]);
    expect(hostEvents).toContainEqual({ type: 'catalog', kinds: ['prompts'] });

    // Calls stay inside the view, over the host's one connection per server.
    await expect(reader.callTool('alpha__echo', { message: 'x' })).rejects.toMatchObject({
      data: { reason: 'unknown-tool' },
    });
    await expect(reader.callTool('beta__add', { a: 1, b: 2 })).rejects.toBeInstanceOf(HostRoutingError);
    expect((await reader.callTool('beta__echo', { message: 'via view' })).content).toEqual([
      { type: 'text', text: 'via view' },
    ]);
    expect(calls(beta).map((c) => c['name'])).toEqual(['echo']);
    expect(alpha.connections).toBe(1);
    expect(beta.connections).toBe(1);

    // Removing beta: reader hears it, triage does not.
    await h.remove('beta');
    expect(readerEvents.map((e) => e.type)).toEqual(['state', 'catalog']);
    expect(reader.tools()).toEqual([]);
    expect(triageEvents).toEqual([{ type: 'catalog', kinds: ['prompts'] }]);

    expect(() => h.view('reader', {})).toThrow(/already defined/);
    expect(() => h.view('nope')).toThrow(/names no view/);
    expect(() => h.view('bad', { tools: 'x' as unknown as string[] })).toThrow(/views\.bad\.tools/);
  });
});

describe('configuration file', () => {
  it('reads trusted, overrides and views', () => {
    const config = parseHostConfig({
      mcpServers: {
        gh: {
          command: 'gh-mcp',
          trusted: true,
          overrides: { create_issue: { name: 'file_bug', defaults: { repo: 'acme/app' }, hide: true } },
        },
      },
      views: { triage: { servers: ['gh'], tools: ['gh__file_bug'] } },
    });
    expect(config.errors).toEqual([]);
    expect(config.servers['gh']).toEqual({
      type: 'stdio',
      command: 'gh-mcp',
      trusted: true,
      overrides: { create_issue: { name: 'file_bug', defaults: { repo: 'acme/app' }, hide: true } },
    });
    expect(config.views).toEqual({ triage: { servers: ['gh'], tools: ['gh__file_bug'] } });
  });

  it('names the server and the field of each malformed policy value', () => {
    const config = parseHostConfig({
      mcpServers: {
        a: { command: 'a', trusted: 'yes' },
        b: { command: 'b', overrides: { t: { defaults: { x: 1 }, hide: ['x', 'y'] } } },
        c: { command: 'c', overrides: { t: { annotations: { destructiveHint: 'no' } } } },
        d: { command: 'd' },
      },
      views: { bad: { tools: ['ok', 7] }, worse: { server: ['d'] } },
    });
    expect(config.errors.map((e) => [e.data.server, e.data.field])).toEqual([
      ['a', 'trusted'],
      ['b', 'overrides.t.hide[1]'],
      ['c', 'overrides.t.annotations.destructiveHint'],
      [undefined, 'views.bad.tools[1]'],
      [undefined, 'views.worse.server'],
    ]);
    expect(config.errors.every((e) => e instanceof HostConfigError)).toBe(true);
    expect(Object.keys(config.servers)).toEqual(['d']);
    expect(config.views).toEqual({});
    expect(() => parseHostConfig({ mcpServers: {}, views: { v: { tools: 'x' } } }, { strict: true })).toThrow(
      /views\.v\.tools/,
    );
  });

  it('fromConfig carries the views and the per-server policy into the host', async () => {
    const server = inMemoryExample();
    const config = parseHostConfig({
      mcpServers: { s: { url: 'http://127.0.0.1:9/mcp', trusted: true, overrides: { add: { name: 'plus' } } } },
      views: { mine: { tools: ['s__plus'] } },
    });
    // The file says where the server is; the test puts it in this process instead.
    const h = McpHost.fromConfig(config, {
      clientInfo,
      createTransport: () => server.location.transport(),
    });
    hosts.push(h);
    await h.connect();
    expect(
      h
        .view('mine')
        .tools()
        .map((t) => [t.exposedName, t.tool.name]),
    ).toEqual([['s__plus', 'add']]);
  });
});
