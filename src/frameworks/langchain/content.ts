/**
 * MCP content as LangChain content: a bounded tool result as a `ToolMessage`'s content (a
 * string when it is text only, else standard content blocks: `text`, and `image`, `audio` or
 * `file` with base64 `data` and `mimeType`, which LangChain's chat model integrations write for
 * their APIs), and a `prompts/get` result as chat messages of their roles.
 */
import { AIMessage, HumanMessage, type BaseMessage, type MessageContent } from '@langchain/core/messages';
import type { ContentBlock, GetPromptResult } from '../../wire/protocol.js';
import { pieceOf } from '../../host/models/modelContent.js';

type Block = Exclude<MessageContent, string>[number];

/** The content of a LangChain message for MCP content blocks (see the module comment). */
export function toLangChainContent(blocks: readonly ContentBlock[]): MessageContent {
  const out: Block[] = [];
  const texts: string[] = [];
  for (const block of blocks) {
    const piece = pieceOf(block);
    if (piece.kind === 'text') {
      if (piece.text === '') continue;
      texts.push(piece.text);
      out.push({ type: 'text', text: piece.text });
      continue;
    }
    const kind = piece.mimeType.startsWith('image/') ? 'image' : piece.mimeType.startsWith('audio/') ? 'audio' : 'file';
    out.push({ type: kind, mimeType: piece.mimeType, data: piece.data });
  }
  return texts.length === out.length ? texts.join('\n\n') : out;
}

/** A `prompts/get` result as LangChain messages: `user` as `HumanMessage`, `assistant` as `AIMessage`. */
export function toLangChainMessages(result: GetPromptResult): BaseMessage[] {
  return (Array.isArray(result.messages) ? result.messages : []).map((message) => {
    const content = toLangChainContent([message.content]);
    return message.role === 'assistant' ? new AIMessage({ content }) : new HumanMessage({ content });
  });
}
