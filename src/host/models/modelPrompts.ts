/**
 * A `prompts/get` result (spec: server/prompts) as each model API's messages. Pure and
 * dependency-free. Each `PromptMessage` becomes one message of its role (`user`, or
 * `assistant`: Gemini's `model`); its content block is written as the API can carry it in a
 * message of that role:
 *
 * | Content | Chat Completions | Responses | Anthropic | Gemini |
 * |---|---|---|---|---|
 * | text | text | text | `text` | `text` |
 * | image (user) | `image_url` data URL (PNG, JPEG, WebP, GIF) | `input_image` (the same) | `image` (the same) | `inlineData` |
 * | audio (user) | `input_audio` (WAV, MP3) | a note | a note | `inlineData` |
 * | embedded text resource | text headed by its URI | the same | the same | the same |
 * | embedded PDF (user) | `file` | `input_file` | `document` | `inlineData` |
 * | resource link | one line: name, URI, type, description | the same | the same | the same |
 *
 * Assistant messages take text only in Chat Completions, Responses and Anthropic: media
 * there, and anything an API does not take, becomes a one-line note naming what was left out.
 * The result's `description` is not a message (it describes the prompt, for the user).
 */
import type { GetPromptResult, PromptMessage } from '../../wire/protocol.js';
import { LocalError } from '../../errors/errors.js';
import type { AnthropicToolResultBlock } from './modelToolResults.js';
import { ErrorCode } from '../../errors/codes.js';
import {
  ANTHROPIC_IMAGE_TYPES,
  OPENAI_IMAGE_TYPES,
  dataUrl,
  fileName,
  note,
  pieceOf,
  type Piece,
} from './modelContent.js';

/** A Chat Completions content part of a user message. */
export type OpenAiChatUserPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** A Chat Completions message (`messages[]` of `POST /v1/chat/completions`). */
export type OpenAiChatMessage =
  { role: 'user'; content: string | OpenAiChatUserPart[] } | { role: 'assistant'; content: string };

/** A Responses API input content item of a user message. */
export type OpenAiResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/** A Responses API input message (`input[]` of `POST /v1/responses`). */
export type OpenAiResponsesMessage =
  | { type: 'message'; role: 'user'; content: string | OpenAiResponsesInputContent[] }
  | { type: 'message'; role: 'assistant'; content: string };

/** An Anthropic content block of a prompt message: text, an image or a PDF document. */
export type AnthropicPromptBlock = AnthropicToolResultBlock;

/** An Anthropic Messages API message (`messages[]` of `POST /v1/messages`). */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicPromptBlock[];
}

/** A Gemini `Content` (`contents[]` of `generateContent`). */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: Array<{ text: string } | { inlineData: { mimeType: string; data: string } }>;
}

const PDF = 'application/pdf';
const CHAT_AUDIO: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/** Chat Completions messages for a prompt. */
export function toOpenAiChatMessages(result: GetPromptResult): OpenAiChatMessage[] {
  return messagesOf(result).map(({ role, piece }) => {
    if (role === 'assistant')
      return { role, content: textOf(piece, 'Chat Completions assistant messages carry text only') };
    if (piece.kind === 'text') return { role, content: piece.text };
    const audio = CHAT_AUDIO[piece.mimeType];
    const part: OpenAiChatUserPart = OPENAI_IMAGE_TYPES.has(piece.mimeType)
      ? { type: 'image_url', image_url: { url: dataUrl(piece) } }
      : audio !== undefined
        ? { type: 'input_audio', input_audio: { data: piece.data, format: audio } }
        : piece.mimeType === PDF
          ? { type: 'file', file: { file_data: dataUrl(piece), filename: fileName(piece) } }
          : { type: 'text', text: note(piece, 'not accepted in a Chat Completions message') };
    return { role, content: [part] };
  });
}

/** Responses API input messages for a prompt. */
export function toOpenAiResponsesMessages(result: GetPromptResult): OpenAiResponsesMessage[] {
  return messagesOf(result).map(({ role, piece }) => {
    if (role === 'assistant')
      return { type: 'message', role, content: textOf(piece, 'Responses assistant messages carry text only') };
    if (piece.kind === 'text') return { type: 'message', role, content: piece.text };
    const item: OpenAiResponsesInputContent = OPENAI_IMAGE_TYPES.has(piece.mimeType)
      ? { type: 'input_image', image_url: dataUrl(piece), detail: 'auto' }
      : piece.mimeType === PDF
        ? { type: 'input_file', file_data: dataUrl(piece), filename: fileName(piece) }
        : { type: 'input_text', text: note(piece, 'not accepted in a Responses message') };
    return { type: 'message', role, content: [item] };
  });
}

/** Anthropic Messages `messages` for a prompt. */
export function toAnthropicMessages(result: GetPromptResult): AnthropicMessage[] {
  return messagesOf(result).map(({ role, piece }) => {
    if (piece.kind === 'text') return { role, content: [{ type: 'text', text: piece.text }] };
    if (role === 'assistant')
      return { role, content: [{ type: 'text', text: note(piece, 'assistant messages carry text only') }] };
    const block: AnthropicPromptBlock = ANTHROPIC_IMAGE_TYPES.has(piece.mimeType)
      ? {
          type: 'image',
          source: {
            type: 'base64',
            media_type: piece.mimeType as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp',
            data: piece.data,
          },
        }
      : piece.mimeType === PDF
        ? {
            type: 'document',
            source: { type: 'base64', media_type: PDF, data: piece.data },
            ...(piece.uri !== undefined && { title: piece.uri }),
          }
        : { type: 'text', text: note(piece, 'not accepted in a message') };
    return { role, content: [block] };
  });
}

/** Gemini `contents` for a prompt (`assistant` is Gemini's `model`). */
export function toGeminiContents(result: GetPromptResult): GeminiContent[] {
  return messagesOf(result).map(({ role, piece }) => ({
    role: role === 'assistant' ? 'model' : 'user',
    parts: [
      piece.kind === 'text'
        ? { text: piece.text }
        : piece.mimeType.startsWith('image/') || piece.mimeType.startsWith('audio/') || piece.mimeType === PDF
          ? { inlineData: { mimeType: piece.mimeType, data: piece.data } }
          : { text: note(piece, 'not accepted inline') },
    ],
  }));
}

function textOf(piece: Piece, why: string): string {
  return piece.kind === 'text' ? piece.text : note(piece, why);
}

/** @internal Each message's role and content piece; throws on what is not a prompts/get result. */
function messagesOf(result: GetPromptResult): Array<{ role: 'user' | 'assistant'; piece: Piece }> {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.messages))
    throw new LocalError(ErrorCode.InvalidParams, 'expected a prompts/get result with a messages array', {
      data: { name: 'result', value: result },
    });
  return result.messages.map((message: PromptMessage, index) => {
    if (message?.role !== 'user' && message?.role !== 'assistant')
      throw new LocalError(
        ErrorCode.InvalidParams,
        `prompt message ${index} has role ${JSON.stringify(message?.role)}`,
        {
          data: { name: `messages[${index}].role`, value: message?.role },
        },
      );
    return { role: message.role, piece: pieceOf(message.content) };
  });
}
