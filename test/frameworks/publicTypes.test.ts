/**
 * Pins the framework entries against the frameworks' own types (checked by tsc; trivially true at
 * run time): what `aiSdkTools` and `aiSdkApproval` return is what `generateText` takes, and what
 * `langchainTools` and `mcpPromptTemplate` return is what LangChain and LangGraph take. No casts.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ModelMessage,
  ToolApprovalConfiguration,
  ToolResultPart,
  ToolSet,
  UserModelMessage,
  generateText,
  streamText,
} from 'ai';
import type { BaseMessage, MessageContent } from '@langchain/core/messages';
import type { BaseChatPromptTemplate } from '@langchain/core/prompts';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { interrupt } from '@langchain/langgraph';
import type { createReactAgent } from '@langchain/langgraph/prebuilt';
import type { McpHost } from '../../src/host.js';
import type { GetPromptResult, ReadResourceResult } from '../../src/index.js';
import {
  aiSdkApproval,
  aiSdkTools,
  toAiSdkMessages,
  toAiSdkResourceMessage,
  toAiSdkToolOutput,
  type AiSdkApproval,
} from '../../src/aiSdk.js';
import {
  langGraphApproval,
  langchainTools,
  mcpPromptTemplate,
  toLangChainContent,
  toLangChainMessages,
  type LangGraphApprovalOptions,
  type McpPromptTemplate,
} from '../../src/langchain.js';

type GenerateTextOptions = Parameters<typeof generateText<ToolSet>>[0];
type StreamTextOptions = Parameters<typeof streamText<ToolSet>>[0];

/** Never called: tsc checks the types of what it would do. */
function aiSdkPins(host: McpHost, prompt: GetPromptResult, read: ReadResourceResult): void {
  const tools = aiSdkTools(host);
  expectTypeOf(tools).toEqualTypeOf<ToolSet>();
  expectTypeOf(tools).toExtend<NonNullable<GenerateTextOptions['tools']>>();
  expectTypeOf(tools).toExtend<NonNullable<StreamTextOptions['tools']>>();
  const approval = aiSdkApproval();
  expectTypeOf(approval).toEqualTypeOf<AiSdkApproval>();
  expectTypeOf(approval.toolApproval).toExtend<ToolApprovalConfiguration<ToolSet, Record<string, unknown>>>();
  expectTypeOf(approval.toolApproval).toExtend<NonNullable<GenerateTextOptions['toolApproval']>>();
  expectTypeOf(toAiSdkToolOutput).returns.toEqualTypeOf<ToolResultPart['output']>();
  expectTypeOf(toAiSdkMessages(prompt)).toEqualTypeOf<ModelMessage[]>();
  expectTypeOf(toAiSdkMessages(prompt)).toExtend<NonNullable<GenerateTextOptions['messages']>>();
  expectTypeOf(toAiSdkResourceMessage(read)).toEqualTypeOf<UserModelMessage>();
}

/** Never called: tsc checks the types of what it would do. */
function langchainPins(host: McpHost, prompt: GetPromptResult): void {
  const toolkit = langchainTools(host);
  expectTypeOf(toolkit.tools).toExtend<StructuredToolInterface[]>();
  expectTypeOf(toolkit.modelTools()).toExtend<StructuredToolInterface[]>();
  expectTypeOf(toolkit.tools).toExtend<Parameters<typeof createReactAgent>[0]['tools']>();
  expectTypeOf(interrupt).toExtend<LangGraphApprovalOptions['interrupt']>();
  expectTypeOf(langGraphApproval({ interrupt })).toHaveProperty('approve');
  expectTypeOf(langGraphApproval({ interrupt: (request) => request }).approve).toBeFunction();
  const template = mcpPromptTemplate(host, 'example__greet');
  expectTypeOf(template).toEqualTypeOf<McpPromptTemplate>();
  expectTypeOf(template).toExtend<BaseChatPromptTemplate<Record<string, string>>>();
  expectTypeOf<ReturnType<McpPromptTemplate['formatMessages']>>().resolves.toEqualTypeOf<BaseMessage[]>();
  expectTypeOf(toLangChainMessages(prompt)).toEqualTypeOf<BaseMessage[]>();
  expectTypeOf(toLangChainContent([])).toEqualTypeOf<MessageContent>();
}

describe('framework entries: public types', () => {
  it('are pinned by tsc', () => {
    expectTypeOf(aiSdkPins).toBeFunction();
    expectTypeOf(langchainPins).toBeFunction();
  });
});
