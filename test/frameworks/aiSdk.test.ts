/**
 * `mcp-live/ai-sdk` against real MCP server processes (the example server over stdio), driven by
 * the AI SDK's own mock language model through multi-step `generateText` loops: a search that
 * loads a deferred tool for the next step, a call, a result cut to its bound and read on with
 * `read_artifact`, approval denied and allowed through the SDK's flow, the host's own approval
 * inside `execute`, a tool error, and a server killed between two steps (the host reconnects).
 */
import { describe, expect, it } from 'vitest';
import {
  generateText,
  isStepCount,
  type LanguageModel,
  type ModelMessage,
  type ToolApprovalResponse,
  type ToolSet,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { McpHost } from '../../src/host/host.js';
import { approvalPreset } from '../../src/host/policy/presets.js';
import { aiSdkApproval, aiSdkTools, isToolResultError, toAiSdkMessages } from '../../src/aiSdk.js';
import { example, guardedExample, killableHost, openHost as open } from './exampleHost.js';

type Prompt = Parameters<MockLanguageModelV4['doGenerate']>[0]['prompt'];
type Turn =
  | { call: string; input: Record<string, unknown>; id?: string }
  | { text: string }
  | ((prompt: Prompt, tools: string[]) => Turn | Promise<Turn>);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * The SDK's mock model answering each step with the next turn of `script`; `seen` records, per
 * step, the tool names the SDK sent and the last message of the prompt.
 */
function scripted(script: Turn[]): { model: LanguageModel; seen: Array<{ tools: string[]; last: unknown }> } {
  const seen: Array<{ tools: string[]; last: unknown }> = [];
  let step = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const tools = (options.tools ?? []).map((tool) => tool.name);
      seen.push({ tools, last: options.prompt.at(-1) });
      let turn = script[step++];
      if (turn === undefined) throw new Error(`no turn scripted for step ${step}`);
      while (typeof turn === 'function') turn = await turn(options.prompt, tools);
      if ('text' in turn)
        return {
          content: [{ type: 'text', text: turn.text }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: turn.id ?? `call_${step}`,
            toolName: turn.call,
            input: JSON.stringify(turn.input),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model, seen };
}

/** The `output` of the last tool message of a prompt (what the model read of the last call). */
function lastToolOutput(prompt: Prompt): unknown {
  const message = prompt.at(-1);
  if (message?.role !== 'tool') return undefined;
  const part = message.content.at(-1);
  return part?.type === 'tool-result' ? part.output : undefined;
}

describe('aiSdkTools: the host as an AI SDK ToolSet', () => {
  it('gives each tool its exposed name, model-facing description and JSON schema, and its server in metadata', async () => {
    const host = await open({
      servers: { example: { ...example, overrides: { echo: { description: 'Says the message back.' } } } },
    });
    const tools = aiSdkTools(host);
    expect(Object.keys(tools)).toEqual([...host.tools().map((t) => t.exposedName), 'read_artifact']);
    const echo = tools['example__echo'];
    expect(echo?.type).toBe('dynamic');
    expect(echo?.description).toBe('Says the message back.');
    expect(echo?.metadata).toEqual({ mcpServer: 'example', mcpTool: 'echo' });
    const { model, seen } = scripted([{ text: 'nothing to do' }]);
    await generateText({ model, tools, prompt: 'hi' });
    expect(seen[0]?.tools).toContain('example__echo');
  });

  it('runs a multi-step loop: search loads a deferred tool for the next step, which is called', async () => {
    const host = await open({ servers: { example: { ...example, defer: 'always' } } });
    const session = host.toolSession();
    const tools = aiSdkTools(host, { session });
    expect(tools['example__add']?.deferLoading).toBe(true);
    const { model, seen } = scripted([
      { call: 'tool_search', input: { query: 'add two numbers' } },
      (_prompt, offered) => {
        expect(offered).toContain('example__add');
        return { call: 'example__add', input: { a: 2, b: 40 } };
      },
      (prompt) => ({ text: `the sum: ${JSON.stringify(lastToolOutput(prompt))}` }),
    ]);
    const result = await generateText({ model, tools, prompt: 'Add 2 and 40.', stopWhen: isStepCount(5) });
    // Step 1: only the search (and read_artifact); the deferred tools are not sent.
    expect(seen[0]?.tools).toContain('tool_search');
    expect(seen[0]?.tools).not.toContain('example__add');
    expect(seen[1]?.tools).toContain('example__add');
    expect(result.text).toContain('42');
    // The session keeps what the search found: the next turn's set loads it directly.
    expect(session.found).toContain('example__add');
    expect(aiSdkTools(host, { session })['example__add']?.deferLoading).toBeUndefined();
  });

  it('bounds a long result, keeps the whole as an artifact, and read_artifact reads on', async () => {
    const host = await open({ contextBudget: { maxResultTokens: 100 } });
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    let cut = '';
    let readFrom = -1;
    const { model } = scripted([
      { call: 'example__echo', input: { message: long } },
      (prompt) => {
        const output = lastToolOutput(prompt) as { type: string; value: string };
        expect(output.type).toBe('text');
        cut = output.value;
        const id = /artifact (art_\d+)/.exec(cut)?.[1] ?? '';
        const offset = Number(/"offset":(\d+)/.exec(cut)?.[1] ?? '0');
        readFrom = offset;
        return { call: 'read_artifact', input: { id, offset } };
      },
      (prompt) => ({ text: (lastToolOutput(prompt) as { value: string }).value }),
    ]);
    const result = await generateText({ model, tools: aiSdkTools(host), prompt: 'echo', stopWhen: isStepCount(4) });
    expect(cut.length).toBeLessThan(long.length);
    expect(cut).toMatch(/characters \(about \d+ tokens\) left out here/);
    expect(host.artifacts.size).toBe(1);
    // The first page from the cut: the text the cut left out, from its offset, and where to read on.
    const [page = '', footer = ''] = result.text.split('\n\n');
    expect(page.length).toBeGreaterThan(0);
    expect(long.slice(readFrom).startsWith(page)).toBe(true);
    expect(footer).toMatch(/^\[artifact art_1: characters \d+–\d+ of \d+; read on with/);
  });

  it('throws ToolResultError for an isError result: the SDK records a tool-error and the model reads its text', async () => {
    const host = await open();
    const { model, seen } = scripted([{ call: 'example__add', input: { a: 'two', b: 40 } }, { text: 'sorry' }]);
    const result = await generateText({ model, tools: aiSdkTools(host), prompt: 'add', stopWhen: isStepCount(3) });
    const errors = result.steps.flatMap((step) => step.content.filter((part) => part.type === 'tool-error'));
    expect(errors).toHaveLength(1);
    expect(isToolResultError(errors[0]?.error)).toBe(true);
    expect(seen[1]?.last).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', output: { type: 'error-text' } }],
    });
  });

  it("maps a refusal of the host's own approve (inside execute) to an execution-denied output", async () => {
    const host = await open({ approve: approvalPreset('deny-destructive') });
    const { model, seen } = scripted([{ call: 'example__update_note', input: { text: 'gone' } }, { text: 'ok' }]);
    await generateText({ model, tools: aiSdkTools(host), prompt: 'clear the note', stopWhen: isStepCount(3) });
    expect(seen[1]?.last).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          output: {
            type: 'execution-denied',
            reason: expect.stringContaining("is not allowed by the host's approval preset"),
          },
        },
      ],
    });
    const note = await host.readResource('demo://note');
    expect(JSON.stringify(note.contents)).not.toContain('gone');
  });

  describe("approval through the SDK's own flow", () => {
    async function firstCall(): Promise<{
      host: McpHost;
      tools: ToolSet;
      approval: ReturnType<typeof aiSdkApproval>;
      messages: ModelMessage[];
      approvalId: string;
    }> {
      const approval = aiSdkApproval({ ask: (call) => call.tool === 'update_note' });
      const host = await open({
        servers: { example: guardedExample },
        approve: approvalPreset('ask-destructive', approval.approve),
      });
      const tools = aiSdkTools(host, { approval });
      const messages: ModelMessage[] = [{ role: 'user', content: 'Replace the note with "hello".' }];
      const { model } = scripted([{ call: 'example__update_note', input: { text: 'hello' }, id: 'call_note' }]);
      const first = await generateText({ model, tools, toolApproval: approval.toolApproval, messages });
      const request = first.content.find((part) => part.type === 'tool-approval-request');
      expect(request).toMatchObject({
        toolCall: { toolName: 'example__update_note' },
        reason: 'Run example__update_note (example/update_note)?',
      });
      messages.push(...first.responseMessages);
      return {
        host,
        tools,
        approval,
        messages,
        approvalId: request?.type === 'tool-approval-request' ? request.approvalId : '',
      };
    }

    it('denied: nothing is sent and the model reads the denial', async () => {
      const { host, tools, approval, messages, approvalId } = await firstCall();
      const response: ToolApprovalResponse = {
        type: 'tool-approval-response',
        approvalId,
        approved: false,
        reason: 'not now',
      };
      messages.push({ role: 'tool', content: [response] });
      const { model, seen } = scripted([{ text: 'understood' }]);
      await generateText({ model, tools, toolApproval: approval.toolApproval, messages });
      expect(JSON.stringify(seen[0]?.last)).toContain('execution-denied');
      const note = await host.readResource('demo://note');
      expect(JSON.stringify(note.contents)).not.toContain('hello');
    });

    it("allowed: the host's gate allows that one call, and the note changes", async () => {
      const { host, tools, approval, messages, approvalId } = await firstCall();
      messages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] });
      const { model, seen } = scripted([(prompt) => ({ text: JSON.stringify(lastToolOutput(prompt)) })]);
      const result = await generateText({ model, tools, toolApproval: approval.toolApproval, messages });
      expect(result.text).toContain('is now at revision');
      expect(seen).toHaveLength(1);
      const note = await host.readResource('demo://note');
      expect(JSON.stringify(note.contents)).toContain('hello');
      // The grant was used once: the same tool call id outside the SDK's flow is refused at the gate.
      await expect(
        host.callTool('example__update_note', { text: 'again' }, { toolCallId: 'call_note' }),
      ).rejects.toMatchObject({ code: -33052, data: { deniedBy: 'policy' } });
    });

    it('an approval is spent once: the same messages sent again do not run the call a second time', async () => {
      const { host, tools, approval, messages, approvalId } = await firstCall();
      messages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] });
      const replay = [...messages];
      const { model } = scripted([{ text: 'done' }]);
      await generateText({ model, tools, toolApproval: approval.toolApproval, messages });
      const after = JSON.stringify((await host.readResource('demo://note', { cacheMode: 'no-store' })).contents);
      expect(after).toContain('hello');
      // The app sends the old conversation again: it still holds the approval and no result.
      const again = scripted([{ text: 'done again' }]);
      await generateText({ model: again.model, tools, toolApproval: approval.toolApproval, messages: replay });
      expect(JSON.stringify(again.seen[0]?.last)).toContain('execution-denied');
      const note = JSON.stringify((await host.readResource('demo://note', { cacheMode: 'no-store' })).contents);
      expect(note).toBe(after);
    });
  });

  it('survives a server killed between two steps: the host reconnects and the next call succeeds', async () => {
    const { host, kill } = await killableHost();
    const killed: number[] = [];
    const { model } = scripted([
      { call: 'example__add', input: { a: 1, b: 1 } },
      async () => {
        killed.push(await kill());
        return { call: 'example__add', input: { a: 2, b: 40 } };
      },
      (prompt) => ({ text: JSON.stringify(lastToolOutput(prompt)) }),
    ]);
    const result = await generateText({
      model,
      tools: aiSdkTools(host),
      prompt: 'add twice',
      stopWhen: isStepCount(4),
    });
    expect(killed).toHaveLength(1);
    expect(result.steps.flatMap((s) => s.content.filter((p) => p.type === 'tool-error'))).toEqual([]);
    expect(result.text).toContain('42');
  });

  it('gives a prompt as the SDK messages', async () => {
    const host = await open();
    const prompt = host.prompts()[0];
    if (prompt === undefined) throw new Error('the example server lists prompts');
    const args = Object.fromEntries((prompt.prompt.arguments ?? []).map((a) => [a.name, 'Ada']));
    const messages = toAiSdkMessages(await host.getPrompt(prompt.exposedName, args));
    expect(messages.length).toBeGreaterThan(0);
    const { model, seen } = scripted([{ text: 'hello' }]);
    await generateText({ model, messages });
    expect(seen[0]?.last).toMatchObject({ role: messages.at(-1)?.role });
  });
});
