/**
 * A `tools/call` result as each model API's tool-result content. Pure and dependency-free.
 *
 * Every converter reads the result the same way, then writes what the API can carry:
 * - `text` blocks: text;
 * - `image` blocks: the image where the API takes images in tool results (Responses and
 *   Anthropic for PNG/JPEG/GIF/WebP, Gemini), else a one-line note (Chat Completions tool messages are
 *   text only); `audio` likewise (only Gemini takes it);
 * - embedded resources: text contents as text, headed by their URI; a PDF blob as a document
 *   or file where the API takes one, an image blob as an image, other blobs as a note;
 * - resource links: one line with the name, URI, MIME type and description;
 * - `structuredContent`: its JSON text, unless the text blocks already say the same: one holds
 *   the same JSON, or the object has one key whose string value is the text (`{ content: text }`,
 *   as server-filesystem sends);
 * - `isError: true`: Anthropic's `is_error`, Gemini's `error` key, and for OpenAI (which has no
 *   flag) a first line `Error:`.
 * - with `options.tool` whose tool links an MCP Apps UI: a result without text gets a first line
 *   saying a view goes with it (`appTextFallback`), shown to the user or not (`appShown`).
 */
import type { CallToolResult } from '../../wire/protocol.js';
import { LocalError, McpError } from '../../errors/errors.js';
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
import { appTextFallback } from '../../apps/textFallback.js';
import type { AppToolSource } from '../../apps/toolUi.js';
import { deniedToolResult, isToolApprovalDeniedError } from '../policy/errors.js';

/** Options of the tool-result converters. */
export interface ToolResultOptions {
  /** The tool that produced the result (a host tool or a plain tool): with a UI link, a text-less result gets a line about the view. */
  tool?: AppToolSource | undefined;
  /** Whether the host shows that tool's UI (MCP Apps) to the user with this result. @default false */
  appShown?: boolean | undefined;
}

function forModel(result: CallToolResult, options: ToolResultOptions | undefined): CallToolResult {
  return options?.tool === undefined ? result : appTextFallback(result, options.tool, { appShown: options.appShown });
}

/** A Chat Completions tool message (`messages[]`, `role: "tool"`). */
export interface OpenAiChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** One item of a Responses `function_call_output` list. */
export type OpenAiResponsesOutputItem =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/** A Responses API `function_call_output` input item. */
export interface OpenAiResponsesToolOutput {
  type: 'function_call_output';
  call_id: string;
  /** A string when the result is text only. */
  output: string | OpenAiResponsesOutputItem[];
}

/** One block of an Anthropic `tool_result`'s content. */
export type AnthropicToolResultBlock =
  | { type: 'text'; text: string }
  | {
      type: 'image';
      source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string };
    }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string }; title?: string };

/** An Anthropic `tool_result` content block (in a `user` message). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicToolResultBlock[];
  is_error?: true;
}

/** A Gemini `Part` holding a `functionResponse`. */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    /** `{ output }` with the text, or `{ error }` when the tool reported an error. */
    response: { output: string } | { error: string };
    /** Images, audio and PDFs of the result. */
    parts?: Array<{ inlineData: { mimeType: string; data: string } }>;
  };
}

const PDF = 'application/pdf';

/** Chat Completions: the `role: "tool"` message answering `toolCallId`. */
export function toOpenAiChatToolMessage(
  given: CallToolResult,
  toolCallId: string,
  options?: ToolResultOptions,
): OpenAiChatToolMessage {
  const result = forModel(given, options);
  const texts = piecesOf(result).map((piece) =>
    piece.kind === 'text' ? piece.text : note(piece, 'Chat Completions tool messages carry text only'),
  );
  return { role: 'tool', tool_call_id: toolCallId, content: withErrorLine(result, texts).join('\n\n') };
}

/** Responses API: the `function_call_output` item answering `callId`. */
export function toOpenAiResponsesToolOutput(
  given: CallToolResult,
  callId: string,
  options?: ToolResultOptions,
): OpenAiResponsesToolOutput {
  const result = forModel(given, options);
  const items: OpenAiResponsesOutputItem[] = [];
  const pieces = piecesOf(result);
  if (result.isError === true) items.push({ type: 'input_text', text: 'Error:' });
  for (const piece of pieces) {
    if (piece.kind === 'text') items.push({ type: 'input_text', text: piece.text });
    else if (OPENAI_IMAGE_TYPES.has(piece.mimeType))
      items.push({ type: 'input_image', image_url: dataUrl(piece), detail: 'auto' });
    else if (piece.mimeType === PDF)
      items.push({ type: 'input_file', file_data: dataUrl(piece), filename: fileName(piece) });
    else items.push({ type: 'input_text', text: note(piece, 'not accepted in a function call output') });
  }
  const textOnly = items.every((item) => item.type === 'input_text');
  return {
    type: 'function_call_output',
    call_id: callId,
    output: textOnly ? items.map((item) => (item as { text: string }).text).join('\n\n') : items,
  };
}

/** Anthropic Messages: the `tool_result` block answering `toolUseId`. */
export function toAnthropicToolResult(
  given: CallToolResult,
  toolUseId: string,
  options?: ToolResultOptions,
): AnthropicToolResult {
  const result = forModel(given, options);
  const content: AnthropicToolResultBlock[] = [];
  for (const piece of piecesOf(result)) {
    if (piece.kind === 'text') {
      if (piece.text !== '') content.push({ type: 'text', text: piece.text });
    } else if (ANTHROPIC_IMAGE_TYPES.has(piece.mimeType))
      content.push({
        type: 'image',
        source: {
          type: 'base64',
          media_type: piece.mimeType as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp',
          data: piece.data,
        },
      });
    else if (piece.mimeType === PDF)
      content.push({
        type: 'document',
        source: { type: 'base64', media_type: PDF, data: piece.data },
        ...(piece.uri !== undefined && { title: piece.uri }),
      });
    else content.push({ type: 'text', text: note(piece, 'not accepted in a tool result') });
  }
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content,
    ...(result.isError === true && { is_error: true as const }),
  };
}

/**
 * Gemini: the `functionResponse` part answering the model's function call (`call.name` is the
 * name the model called, `call.id` its id when it gave one).
 */
export function toGeminiFunctionResponse(
  given: CallToolResult,
  call: { name: string; id?: string | undefined },
  options?: ToolResultOptions,
): GeminiFunctionResponsePart {
  const result = forModel(given, options);
  const texts: string[] = [];
  const parts: Array<{ inlineData: { mimeType: string; data: string } }> = [];
  for (const piece of piecesOf(result)) {
    if (piece.kind === 'text') texts.push(piece.text);
    else if (piece.mimeType.startsWith('image/') || piece.mimeType.startsWith('audio/') || piece.mimeType === PDF)
      parts.push({ inlineData: { mimeType: piece.mimeType, data: piece.data } });
    else texts.push(note(piece, 'not accepted in a function response'));
  }
  const text = texts.join('\n\n');
  return {
    functionResponse: {
      ...(call.id !== undefined && { id: call.id }),
      name: call.name,
      response: result.isError === true ? { error: text } : { output: text },
      ...(parts.length > 0 && { parts }),
    },
  };
}

/**
 * A tool result for a call that threw (an unknown tool name the model made up, a timeout, a
 * server that went away), so the model hears what happened: `isError: true` and the error's
 * message, with its JSON-RPC code for mcp-live errors. A `ToolApprovalDeniedError` is no
 * failure: it becomes `deniedToolResult(error)`, "The user declined to run …", without `isError`.
 */
export function errorToolResult(error: unknown): CallToolResult {
  if (isToolApprovalDeniedError(error)) return deniedToolResult(error);
  const text = McpError.is(error)
    ? `${error.message} (code ${error.code})`
    : error instanceof Error
      ? error.message
      : String(error);
  return { content: [{ type: 'text', text }], isError: true };
}

/** @internal The pieces of a result, in order (see the module comment). */
function piecesOf(result: CallToolResult): Piece[] {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.content))
    throw new LocalError(ErrorCode.InvalidParams, 'expected a tools/call result with a content array', {
      data: { name: 'result', value: result },
    });
  const pieces = result.content.map(pieceOf);
  const structured = result.structuredContent;
  if (structured !== undefined && !saidInText(structured, pieces))
    pieces.push({ kind: 'text', text: JSON.stringify(structured) });
  return pieces;
}

/**
 * @internal `structuredContent` as the JSON text the converters add, or `undefined` when the
 * result has none or its text blocks already say it (see the module comment).
 */
export function unsaidStructuredText(result: CallToolResult): string | undefined {
  const structured = result.structuredContent;
  if (structured === undefined || !Array.isArray(result.content)) return undefined;
  return saidInText(structured, result.content.map(pieceOf)) ? undefined : JSON.stringify(structured);
}

/** Whether the text pieces already carry `structured` (see the module comment). */
function saidInText(structured: unknown, pieces: readonly Piece[]): boolean {
  const texts = pieces.filter((p): p is Extract<Piece, { kind: 'text' }> => p.kind === 'text').map((p) => p.text);
  if (texts.some((text) => sameJson(text, structured))) return true;
  if (typeof structured !== 'object' || structured === null || Array.isArray(structured)) return false;
  const values = Object.values(structured);
  return values.length === 1 && typeof values[0] === 'string' && values[0] === texts.join('\n');
}

function withErrorLine(result: CallToolResult, texts: string[]): string[] {
  return result.isError === true ? ['Error:', ...texts] : texts;
}

/** Whether `text` is JSON equal to `value` (key order aside). */
function sameJson(text: string, value: unknown): boolean {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return false;
  try {
    return canonical(JSON.parse(trimmed)) === canonical(value);
  } catch {
    return false;
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
