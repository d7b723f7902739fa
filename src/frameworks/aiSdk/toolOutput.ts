/**
 * A bounded MCP tool result as the AI SDK's tool-result output (`ToolResultOutput`, what a
 * tool's `toModelOutput` returns): text only as `text`; with images, audio or blob resources as
 * `content` with `file` parts (base64 data and the block's MIME type), which the SDK's providers
 * write for their APIs; a refusal of the host's approval as `execution-denied`, the shape the
 * SDK itself gives a call the user declined.
 */
import type { JSONValue, ToolResultPart } from 'ai';
import type { CallToolResult } from '../../wire/protocol.js';
import { fileName, pieceOf } from '../../host/models/modelContent.js';
import { approvalDenial, resultText } from '../toolResultError.js';

/** The SDK's `ToolResultOutput` (the `output` of a `tool-result` part; `ai` exports it by this path only). */
export type AiSdkToolOutput = ToolResultPart['output'];
type ContentPart = Extract<AiSdkToolOutput, { type: 'content' }>['value'][number];

/**
 * The SDK's output for `result` (see the module comment). `output` is what `execute` returned,
 * or what a conversation's history says it returned: anything but a result object is sent as
 * JSON, as the SDK would.
 */
export function toAiSdkToolOutput(output: unknown): AiSdkToolOutput {
  if (!isResult(output)) return { type: 'json', value: JSON.parse(JSON.stringify(output ?? null)) as JSONValue };
  const result = output;
  if (approvalDenial(result) !== undefined) return { type: 'execution-denied', reason: resultText(result) };
  const parts: ContentPart[] = [];
  for (const block of Array.isArray(result.content) ? result.content : []) {
    const piece = pieceOf(block);
    if (piece.kind === 'text') {
      if (piece.text !== '') parts.push({ type: 'text', text: piece.text });
    } else
      parts.push({
        type: 'file',
        mediaType: piece.mimeType,
        data: { type: 'data', data: piece.data },
        ...(piece.uri !== undefined && { filename: fileName(piece) }),
      });
  }
  if (result.isError === true) return { type: 'error-text', value: resultText(result) };
  if (parts.every((part) => part.type === 'text'))
    return { type: 'text', value: parts.map((part) => (part as { text: string }).text).join('\n\n') };
  return { type: 'content', value: parts };
}

function isResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}
