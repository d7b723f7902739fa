/**
 * A `prompts/get` result (or any list of prompt messages) as the messages of the model API in
 * use, by name: the prompt converters of `modelPrompts.ts` behind one switch, for the host's
 * slash commands and mentions.
 */
import type { GetPromptResult } from '../../wire/protocol.js';
import {
  toAnthropicMessages,
  toGeminiContents,
  toOpenAiChatMessages,
  toOpenAiResponsesMessages,
  type AnthropicMessage,
  type GeminiContent,
  type OpenAiChatMessage,
  type OpenAiResponsesMessage,
} from './modelPrompts.js';

/** The model APIs the prompt converters write for. */
export type PromptApi = 'anthropic' | 'openAiChat' | 'openAiResponses' | 'gemini';

/** The messages of one {@link PromptApi}. */
export type MessagesFor<A extends PromptApi> = A extends 'anthropic'
  ? AnthropicMessage[]
  : A extends 'openAiChat'
    ? OpenAiChatMessage[]
    : A extends 'openAiResponses'
      ? OpenAiResponsesMessage[]
      : GeminiContent[];

/** `result`'s messages for `api`. */
export function messagesFor<A extends PromptApi>(api: A, result: GetPromptResult): MessagesFor<A> {
  switch (api) {
    case 'anthropic':
      return toAnthropicMessages(result) as MessagesFor<A>;
    case 'openAiChat':
      return toOpenAiChatMessages(result) as MessagesFor<A>;
    case 'openAiResponses':
      return toOpenAiResponsesMessages(result) as MessagesFor<A>;
    default:
      return toGeminiContents(result) as MessagesFor<A>;
  }
}

/** Whether `value` names a {@link PromptApi}. */
export function isPromptApi(value: unknown): value is PromptApi {
  return value === 'anthropic' || value === 'openAiChat' || value === 'openAiResponses' || value === 'gemini';
}
