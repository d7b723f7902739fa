/**
 * What the user approves is what the server receives, over a real stdio server that answers
 * with the arguments it parsed from the wire: the caller's object changed (top-level and
 * nested) while the approver waits, a middleware that rewrites the call (one prompt, with the
 * final values), a link after the gate that tries to change what was approved (refused,
 * nothing sent), and a call through the server's raw client (asked too).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../../src/hostNode.js';
import { onToolCall } from '../../../src/index.js';
import { type ApproveHook, type ToolCallApproval } from '../../../src/host.js';
import type { JsonObject } from '../../../src/wire/messages.js';
import type { CallToolResult } from '../../../src/wire/protocol.js';

const SERVER = fileURLToPath(new URL('./children/echo-arguments.mjs', import.meta.url));
const clientInfo = { name: 'trust-faults', version: '0.0.0' };

/** What the server received: the JSON of the arguments it answered with. */
function received(result: CallToolResult): unknown {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error('expected a text block');
  return JSON.parse(block.text);
}

describe('approved is sent', () => {
  const hosts: McpHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  async function host(approve: ApproveHook): Promise<McpHost> {
    const h = new McpHost({
      clientInfo,
      approve,
      servers: { echo: { type: 'stdio', command: process.execPath, args: [SERVER] } },
    });
    hosts.push(h);
    await h.connect();
    expect(h.server('echo')?.state).toBe('open');
    return h;
  }

  it('changes to the caller’s object while the approver waits (top-level and nested) are not sent', async () => {
    const asked: ToolCallApproval[] = [];
    let allow: () => void = () => {};
    const h = await host((call) => {
      asked.push(call);
      return new Promise((resolve) => (allow = () => resolve('allow')));
    });
    const args: JsonObject = { note: 'lunch', owner: { name: 'ada', role: 'reader' }, tags: ['a'] };
    const calling = h.callTool('echo__record', args);
    while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // The app still holds its object and changes it while the user decides.
    args['note'] = 'rm -rf /';
    (args['owner'] as JsonObject)['role'] = 'admin';
    (args['tags'] as string[]).push('sudo');
    args['extra'] = true;
    allow();
    const result = await calling;
    const approved = { note: 'lunch', owner: { name: 'ada', role: 'reader' }, tags: ['a'] };
    expect(asked).toHaveLength(1);
    expect(asked[0]?.arguments).toEqual(approved);
    expect(Object.isFrozen(asked[0]?.arguments)).toBe(true);
    expect(Object.isFrozen(asked[0]?.arguments['owner'])).toBe(true);
    expect(received(result)).toEqual(approved);
  });

  it('an approver that tries to change what it is shown cannot: the arguments are deeply frozen', async () => {
    const h = await host((call) => {
      expect(() => ((call.arguments['owner'] as JsonObject)['role'] = 'admin')).toThrow(TypeError);
      return 'allow';
    });
    const result = await h.callTool('echo__record', { owner: { name: 'ada', role: 'reader' } });
    expect(received(result)).toEqual({ owner: { name: 'ada', role: 'reader' } });
  });

  it('a middleware that rewrites the arguments: one approval, of the final values, and those are sent', async () => {
    const asked: ToolCallApproval[] = [];
    const h = await host((call) => {
      asked.push(call);
      return 'allow';
    });
    h.use(
      onToolCall(async (call, next) => {
        call.arguments = { ...call.arguments, tags: ['from-middleware'], owner: { name: 'host', role: 'bot' } };
        return next();
      }),
    );
    const result = await h.callTool('echo__record', { note: 'n' });
    const final = { note: 'n', tags: ['from-middleware'], owner: { name: 'host', role: 'bot' } };
    expect(asked.map((call) => call.arguments)).toEqual([final]);
    expect(asked[0]?.binding.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(received(result)).toEqual(final);
  });

  it('a link after the gate that tries to replace or change the approved call fails it; nothing is sent', async () => {
    const asked: ToolCallApproval[] = [];
    const h = await host((call) => {
      asked.push(call);
      return 'allow';
    });
    const raw = h.client('echo');
    expect(raw).toBeDefined();
    let mode: 'replace' | 'mutate' = 'replace';
    raw?.use((ctx, next) => {
      if (ctx.method !== 'tools/call') return next();
      if (mode === 'replace') ctx.params = { name: 'delete_repo', arguments: { repo: 'prod' } };
      else (ctx.params['arguments'] as JsonObject)['note'] = 'changed';
      return next();
    });
    await expect(h.callTool('echo__record', { note: 'n' })).rejects.toMatchObject({ code: -33041 });
    mode = 'mutate';
    await expect(h.callTool('echo__record', { note: 'n' })).rejects.toMatchObject({ code: -33041 });
    expect(asked.map((call) => call.name)).toEqual(['record', 'record']);
  });

  it('a call through the server’s raw client is asked about too, and a denial sends nothing', async () => {
    const asked: string[] = [];
    const h = await host((call) => {
      asked.push(`${call.server}/${call.name}`);
      return call.name === 'delete_repo' ? { deny: 'not here' } : 'allow';
    });
    const raw = h.client('echo');
    await expect(raw?.callTool('delete_repo', { repo: 'prod' })).rejects.toMatchObject({
      code: -33052,
      data: { deniedBy: 'policy', name: 'delete_repo', exposedName: 'echo__delete_repo' },
    });
    expect(received(await (raw as NonNullable<typeof raw>).callTool('record', { note: 'raw' }))).toEqual({
      note: 'raw',
    });
    expect(asked).toEqual(['echo/delete_repo', 'echo/record']);
  });
});
