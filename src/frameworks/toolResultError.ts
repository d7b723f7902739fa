/**
 * `ToolResultError`: a framework tool's call that the tool (or the host) answered with
 * `isError: true`. The adapters throw it from `execute` / `invoke`, which is how the AI SDK and
 * LangChain learn of a failed tool: the framework records a tool error and hands the model the
 * error's message, which is the result's own text.
 */
import { ErrorCode } from '../errors/codes.js';
import { LocalError, McpError } from '../errors/errors.js';
import type { CallToolResult } from '../wire/protocol.js';
import { pieceOf } from '../host/models/modelContent.js';

/** `data` of {@link ToolResultError}. */
export interface ToolResultErrorData {
  /** The exposed name the model called. */
  tool: string;
  /** The server of the tool, when the name was one of the catalog's. */
  server?: string | undefined;
  /** The result as the model would have read it (bounded): `isError: true`. */
  result: CallToolResult;
}

/**
 * A tool call that failed (code -33090, local): the tool answered `isError: true`, or the host
 * could not run it and said so in an error result (unknown tool, server unavailable, timeout).
 * `message` is the result's text, what the model reads; `data.result` is the whole result.
 */
export class ToolResultError extends LocalError {
  override name = 'ToolResultError';
  declare readonly data: ToolResultErrorData;

  constructor(data: ToolResultErrorData) {
    super(ErrorCode.ToolResultFailed, resultText(data.result) || `${data.tool} failed`, { data });
  }
}

/** True for a {@link ToolResultError}, whichever copy of the package made it. */
export function isToolResultError(value: unknown): value is ToolResultError {
  return McpError.is(value) && value.local && value.code === ErrorCode.ToolResultFailed;
}

/** The text pieces of a result, joined by blank lines (media left out). */
export function resultText(result: CallToolResult): string {
  const texts: string[] = [];
  for (const block of Array.isArray(result.content) ? result.content : []) {
    const piece = pieceOf(block);
    if (piece.kind === 'text' && piece.text !== '') texts.push(piece.text);
  }
  return texts.join('\n\n');
}

/** The refusal of the host's approval a result carries (`deniedToolResult`), if it is one. */
export function approvalDenial(result: CallToolResult): { reason: string; deniedBy: string } | undefined {
  const meta = result._meta?.['mcp-live/approval'];
  if (typeof meta !== 'object' || meta === null || (meta as { denied?: unknown }).denied !== true) return undefined;
  const { reason, deniedBy } = meta as { reason?: unknown; deniedBy?: unknown };
  return { reason: String(reason), deniedBy: String(deniedBy) };
}
