/**
 * Prompts and resources where the AI SDK has a place for them: its `ModelMessage`s. A
 * `prompts/get` result (spec: server/prompts) becomes one message per `PromptMessage`, of its
 * role; a `resources/read` result (spec: server/resources) one user message. Content is read the
 * host's way (`pieceOf`): text as `text` parts (a text resource headed by its URI, a resource
 * link as one line), images, audio and blobs as `file` parts with their MIME type (the SDK's
 * providers write or refuse them per API). An assistant message takes text and files as the SDK
 * allows them there.
 */
import type { AssistantModelMessage, FilePart, ModelMessage, TextPart, UserModelMessage } from 'ai';
import type { ContentBlock, GetPromptResult, ReadResourceResult } from '../../wire/protocol.js';
import { fileName, pieceOf } from '../../host/models/modelContent.js';

/** A `prompts/get` result as AI SDK messages, for `generateText({ messages })`. */
export function toAiSdkMessages(result: GetPromptResult): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of Array.isArray(result.messages) ? result.messages : []) {
    const part = partOf(message.content);
    if (message.role === 'assistant') out.push({ role: 'assistant', content: [part] } satisfies AssistantModelMessage);
    else out.push({ role: 'user', content: [part] } satisfies UserModelMessage);
  }
  return out;
}

/** A `resources/read` result as one AI SDK user message (its contents in order). */
export function toAiSdkResourceMessage(result: ReadResourceResult): UserModelMessage {
  const parts = (Array.isArray(result.contents) ? result.contents : []).map((resource) =>
    partOf({ type: 'resource', resource }),
  );
  return { role: 'user', content: parts };
}

function partOf(block: ContentBlock): TextPart | FilePart {
  const piece = pieceOf(block);
  if (piece.kind === 'text') return { type: 'text', text: piece.text };
  return {
    type: 'file',
    mediaType: piece.mimeType,
    data: { type: 'data', data: piece.data },
    ...(piece.uri !== undefined && { filename: fileName(piece) }),
  };
}
