/**
 * Golden and rule tests of the prompt converters: one getPrompt result with every kind of
 * content, in both roles, to each API's messages (golden files in test/host/golden/), the
 * outputs typed against the official SDKs' request types, and each API's documented message
 * rules checked on them (roles; what an assistant message may hold; media types).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { Content } from '@google/genai';
import {
  toAnthropicMessages,
  toGeminiContents,
  toOpenAiChatMessages,
  toOpenAiResponsesMessages,
  type AnthropicMessage,
  type GeminiContent,
  type OpenAiChatMessage,
  type OpenAiResponsesMessage,
} from '../../src/host/models/modelPrompts.js';
import type { GetPromptResult, PromptMessage } from '../../src/wire/protocol.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcfsj6IKJSVFT0YK';
const WAV = 'UklGRiQAAABXQVZF';

const contents: PromptMessage['content'][] = [
  { type: 'text', text: 'Review this.' },
  { type: 'image', data: PNG, mimeType: 'image/png' },
  { type: 'image', data: 'Qk0eAAAA', mimeType: 'image/bmp' },
  { type: 'audio', data: WAV, mimeType: 'audio/wav' },
  { type: 'audio', data: 'T2dnUw==', mimeType: 'audio/ogg' },
  { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes\nship it' } },
  { type: 'resource', resource: { uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: PDF } },
  { type: 'resource', resource: { uri: 'file:///data.bin', blob: 'AAECAw==' } },
  {
    type: 'resource_link',
    uri: 'file:///src/main.ts',
    name: 'main.ts',
    mimeType: 'text/x-typescript',
    description: 'The entry point',
  },
];
const prompt: GetPromptResult = {
  description: 'A code review',
  messages: [
    ...contents.map((content) => ({ role: 'user' as const, content })),
    { role: 'assistant', content: { type: 'text', text: 'Looking at it now.' } },
    { role: 'assistant', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
  ],
};

describe('prompt messages', () => {
  it('OpenAI Chat Completions', async () => {
    const messages = toOpenAiChatMessages(prompt);
    expectTypeOf(messages).toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>();
    for (const message of messages) {
      if (message.role === 'assistant') expect(typeof message.content).toBe('string');
      if (Array.isArray(message.content))
        for (const part of message.content) {
          expect(['text', 'image_url', 'input_audio', 'file']).toContain(part.type);
          if (part.type === 'input_audio') expect(['wav', 'mp3']).toContain(part.input_audio.format);
          if (part.type === 'image_url') expect(part.image_url.url).toMatch(/^data:image\/[a-z]+;base64,/);
        }
    }
    await expect(json(messages)).toMatchFileSnapshot('golden/openai-chat.prompt.json');
  });

  it('OpenAI Responses', async () => {
    const messages = toOpenAiResponsesMessages(prompt);
    expectTypeOf(messages).toExtend<OpenAI.Responses.ResponseInputItem[]>();
    for (const message of messages)
      if (Array.isArray(message.content))
        for (const item of message.content) expect(['input_text', 'input_image', 'input_file']).toContain(item.type);
    await expect(json(messages)).toMatchFileSnapshot('golden/openai-responses.prompt.json');
  });

  it('Anthropic Messages', async () => {
    const messages = toAnthropicMessages(prompt);
    expectTypeOf(messages).toExtend<Anthropic.Messages.MessageParam[]>();
    for (const message of messages) {
      if (message.role === 'assistant') expect(message.content.every((b) => b.type === 'text')).toBe(true);
      for (const block of message.content)
        if (block.type === 'image')
          expect(['image/jpeg', 'image/png', 'image/gif', 'image/webp']).toContain(block.source.media_type);
    }
    await expect(json(messages)).toMatchFileSnapshot('golden/anthropic.prompt.json');
  });

  it('Gemini', async () => {
    const contentsOut = toGeminiContents(prompt);
    expectTypeOf(contentsOut).toExtend<Content[]>();
    expect(new Set(contentsOut.map((c) => c.role))).toEqual(new Set(['user', 'model']));
    await expect(json(contentsOut)).toMatchFileSnapshot('golden/gemini.prompt.json');
  });

  it('keeps the order and roles, and notes what an API cannot take', () => {
    const chat = toOpenAiChatMessages(prompt);
    expect(chat.map((m) => m.role)).toEqual(prompt.messages.map((m) => m.role));
    expect(chat[2]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '[image (image/bmp, 6 bytes) left out: not accepted in a Chat Completions message]' },
      ],
    });
    expect(chat.at(-1)?.content).toMatch(
      /^\[image \(image\/png, \d+ bytes\) left out: Chat Completions assistant messages carry text only\]$/,
    );
    expect(toAnthropicMessages(prompt)[3]?.content).toEqual([
      { type: 'text', text: '[audio (audio/wav, 12 bytes) left out: not accepted in a message]' },
    ]);
    expect(toGeminiContents(prompt)[3]?.parts).toEqual([{ inlineData: { mimeType: 'audio/wav', data: WAV } }]);
    expect(toOpenAiResponsesMessages(prompt)[0]).toEqual({ type: 'message', role: 'user', content: 'Review this.' });
  });

  it('rejects what is not a prompts/get result, and unknown roles', () => {
    expect(() => toAnthropicMessages({} as GetPromptResult)).toThrow(/messages array/);
    expect(() =>
      toGeminiContents({
        messages: [{ role: 'system', content: { type: 'text', text: 'x' } }],
      } as unknown as GetPromptResult),
    ).toThrow(/role "system"/);
  });
});

expectTypeOf<OpenAiChatMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam>();
expectTypeOf<OpenAiResponsesMessage>().toExtend<OpenAI.Responses.ResponseInputItem>();
expectTypeOf<AnthropicMessage>().toExtend<Anthropic.Messages.MessageParam>();
expectTypeOf<GeminiContent>().toExtend<Content>();

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
