/**
 * `mcp-live/langchain` against real MCP server processes (the example server over stdio), in
 * LangGraph's own agent (`createReactAgent`, its `ToolNode`, a `MemorySaver` checkpointer) driven
 * by a scripted tool-calling chat model built on LangChain's `BaseChatModel`: a call with its
 * content and artifact, a search that loads a deferred tool for the next model call, a result
 * cut to its bound, approval as an interrupt (declined and approved on resume), a tool error, a
 * server killed between two calls, and a prompt as a prompt template.
 */
import { describe, expect, it } from 'vitest';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { Command, MemorySaver, interrupt } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import type { McpHost } from '../../src/host/host.js';
import { approvalPreset } from '../../src/host/policy/presets.js';
import {
  isToolResultError,
  langGraphApproval,
  langchainTools,
  mcpPromptTemplate,
  type McpToolArtifact,
} from '../../src/langchain.js';
import { example, guardedExample, killableHost, openHost as open } from './exampleHost.js';

type Turn =
  | { call: string; args: Record<string, unknown>; id?: string }
  | { text: string }
  | ((messages: BaseMessage[]) => Turn | Promise<Turn>);

/** A tool-calling chat model on LangChain's `BaseChatModel` that answers each call with the next turn. */
class ScriptedChatModel extends BaseChatModel {
  readonly bound: string[][] = [];
  private step = 0;
  constructor(private readonly script: Turn[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(tools: StructuredToolInterface[]): this {
    this.bound.push(tools.map((tool) => tool.name));
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    let turn = this.script[this.step++];
    if (turn === undefined) throw new Error(`no turn scripted for call ${this.step}`);
    while (typeof turn === 'function') turn = await turn(messages);
    const message =
      'text' in turn
        ? new AIMessage(turn.text)
        : new AIMessage({
            content: '',
            tool_calls: [{ id: turn.id ?? `call_${this.step}`, name: turn.call, args: turn.args, type: 'tool_call' }],
          });
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

/** A message's content as text (a string content as is, blocks as JSON). */
function textOf(message: BaseMessage | undefined): string {
  const content = message?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

function lastTool(messages: BaseMessage[]): ToolMessage {
  const message = messages.at(-1);
  if (!(message instanceof ToolMessage)) throw new Error(`expected a ToolMessage, got ${message?.getType()}`);
  return message;
}

describe('langchainTools: the host as LangChain structured tools', () => {
  it('runs a call in a LangGraph agent: content for the model, the artifact for the app', async () => {
    const host = await open();
    const toolkit = langchainTools(host);
    const add = toolkit.tools.find((tool) => tool.name === 'example__add');
    expect(add?.description).toBe('Adds two numbers.');
    expect(add?.metadata).toEqual({ mcpServer: 'example', mcpTool: 'add' });
    expect(add?.responseFormat).toBe('content_and_artifact');
    let seen: ToolMessage | undefined;
    const model = new ScriptedChatModel([
      { call: 'example__add', args: { a: 2, b: 40 } },
      (messages) => {
        seen = lastTool(messages);
        return { text: 'done' };
      },
    ]);
    const agent = createReactAgent({ llm: model, tools: toolkit.tools });
    await agent.invoke({ messages: [{ role: 'user', content: 'Add 2 and 40.' }] });
    expect(seen?.content).toContain('42');
    const artifact = seen?.artifact as McpToolArtifact;
    expect(artifact).toMatchObject({ server: 'example', tool: 'add', truncated: false });
    expect(JSON.stringify(artifact.result.content)).toContain('42');
  });

  it('loads what tool_search found for the next model call', async () => {
    const host = await open({ servers: { example: { ...example, defer: 'always' } } });
    const toolkit = langchainTools(host);
    expect(toolkit.modelTools().map((t) => t.name)).toEqual(['tool_search', 'read_artifact']);
    const model = new ScriptedChatModel([
      { call: 'tool_search', args: { query: 'add two numbers' } },
      { call: 'example__add', args: { a: 2, b: 40 } },
      (messages) => ({ text: textOf(lastTool(messages)) }),
    ]);
    const agent = createReactAgent({ llm: () => model.bindTools(toolkit.modelTools()), tools: toolkit.tools });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Add 2 and 40.' }] });
    expect(model.bound[0]).not.toContain('example__add');
    expect(model.bound[1]).toContain('example__add');
    expect(textOf(result.messages.at(-1))).toContain('42');
  });

  it('bounds a long result and keeps the whole as an artifact', async () => {
    const host = await open({ contextBudget: { maxResultTokens: 100 } });
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const tool = langchainTools(host).tools.find((t) => t.name === 'example__echo');
    const message = (await tool?.invoke({
      type: 'tool_call',
      id: 'call_1',
      name: 'example__echo',
      args: { message: long },
    })) as ToolMessage;
    expect(textOf(message).length).toBeLessThan(long.length);
    expect(textOf(message)).toContain('read_artifact');
    const artifact = message.artifact as McpToolArtifact;
    expect(artifact.truncated).toBe(true);
    expect(artifact.artifact?.text).toContain('word199');
  });

  it('throws ToolResultError for an isError result; the ToolNode hands the model an error message', async () => {
    const host = await open();
    const toolkit = langchainTools(host);
    await expect(
      toolkit.tools.find((t) => t.name === 'example__get_item_link')?.invoke({ n: 999_999 }),
    ).rejects.toSatisfy(isToolResultError);
    let seen: ToolMessage | undefined;
    const model = new ScriptedChatModel([
      { call: 'example__get_item_link', args: { n: 999_999 } },
      (messages) => {
        seen = lastTool(messages);
        return { text: 'sorry' };
      },
    ]);
    await createReactAgent({ llm: model, tools: toolkit.tools }).invoke({
      messages: [{ role: 'user', content: 'add' }],
    });
    expect(seen?.status).toBe('error');
    expect(textOf(seen)).toContain('No item 999999');
  });

  describe('approval as a LangGraph interrupt', () => {
    async function interrupted(): Promise<{
      host: McpHost;
      agent: ReturnType<typeof createReactAgent>;
      config: { configurable: { thread_id: string } };
    }> {
      const approval = langGraphApproval({ interrupt, ask: (call) => call.tool === 'update_note' });
      const host = await open({
        servers: { example: guardedExample },
        approve: approvalPreset('ask-destructive', approval.approve),
      });
      const model = new ScriptedChatModel([
        { call: 'example__update_note', args: { text: 'hello' }, id: 'call_note' },
        (messages) => ({ text: textOf(lastTool(messages)) }),
      ]);
      const agent = createReactAgent({
        llm: model,
        tools: langchainTools(host, { approval }).tools,
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: crypto.randomUUID() } };
      const first = await agent.invoke({ messages: [{ role: 'user', content: 'Set the note to hello.' }] }, config);
      const request = (first as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__?.[0]?.value;
      expect(request).toMatchObject({
        type: 'mcp-live/approval',
        exposedName: 'example__update_note',
        input: { text: 'hello' },
        toolCallId: 'call_note',
      });
      return { host, agent, config };
    }

    it('declined on resume: nothing is sent and the model reads who declined', async () => {
      const { host, agent, config } = await interrupted();
      const result = await agent.invoke(new Command({ resume: { approved: false, reason: 'not today' } }), config);
      expect(textOf(result.messages.at(-1))).toBe(
        'The user declined to run example__update_note: not today. It was not run.',
      );
      expect(JSON.stringify((await host.readResource('demo://note')).contents)).not.toContain('hello');
    });

    it("approved on resume: the host's gate lets that call through", async () => {
      const { host, agent, config } = await interrupted();
      const result = await agent.invoke(new Command({ resume: true }), config);
      expect(textOf(result.messages.at(-1))).toContain('is now at revision');
      expect(JSON.stringify((await host.readResource('demo://note')).contents)).toContain('hello');
    });
  });

  it('survives a server killed between two calls: the host reconnects', async () => {
    const { host, kill } = await killableHost();
    const model = new ScriptedChatModel([
      { call: 'example__add', args: { a: 1, b: 1 } },
      async () => {
        await kill();
        return { call: 'example__add', args: { a: 2, b: 40 } };
      },
      (messages) => ({ text: textOf(lastTool(messages)) }),
    ]);
    const result = await createReactAgent({ llm: model, tools: langchainTools(host).tools }).invoke({
      messages: [{ role: 'user', content: 'add twice' }],
    });
    expect(textOf(result.messages.at(-1))).toContain('42');
  });

  it('gives a prompt as a chat prompt template that renders on the server', async () => {
    const host = await open();
    const listed = host.prompts().find((p) => (p.prompt.arguments ?? []).length > 0);
    if (listed === undefined) throw new Error('the example server lists a prompt with arguments');
    const template = mcpPromptTemplate(host, listed.exposedName);
    expect(template.inputVariables).toEqual((listed.prompt.arguments ?? []).map((a) => a.name));
    const values = Object.fromEntries(template.inputVariables.map((name) => [name, 'Ada']));
    const messages = await template.formatMessages(values);
    expect(messages.length).toBeGreaterThan(0);
    const direct = await host.getPrompt(listed.exposedName, values);
    expect(messages.map((m) => m.content)).toEqual(
      direct.messages.map((m) => (m.content.type === 'text' ? m.content.text : m.content)),
    );
  });
});
