/**
 * MCP content blocks (spec: server/tools "Tool Result", server/prompts "PromptMessage") read
 * the same way for every model API, before each converter writes what its API can carry:
 * text as text; images, audio and blob resources as media; a text resource as text headed by
 * its URI; a resource link as one line with its name, URI, MIME type and description.
 */
import type { ContentBlock } from '../../wire/protocol.js';

/**
 * Image types OpenAI takes (PNG, JPEG, WEBP, non-animated GIF:
 * https://platform.openai.com/docs/guides/images-vision#image-input-requirements) and
 * Anthropic takes (https://docs.anthropic.com/en/docs/build-with-claude/vision).
 */
export const OPENAI_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
export const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/** One piece of content, before it is written for an API. */
export type Piece =
  | { kind: 'text'; text: string }
  | { kind: 'media'; mimeType: string; data: string; uri?: string | undefined; label: string };

/** The piece one content block stands for. */
export function pieceOf(block: ContentBlock): Piece {
  switch (block?.type) {
    case 'text':
      return { kind: 'text', text: String(block.text) };
    case 'image':
    case 'audio':
      return { kind: 'media', mimeType: block.mimeType, data: block.data, label: block.type };
    case 'resource_link': {
      const name = block.title ?? block.name;
      return {
        kind: 'text',
        text: `Resource link: ${name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? `: ${block.description}` : ''}`,
      };
    }
    case 'resource': {
      const contents = block.resource;
      if ('text' in contents && typeof contents.text === 'string')
        return {
          kind: 'text',
          text: `Resource ${contents.uri}${contents.mimeType ? ` (${contents.mimeType})` : ''}:\n${contents.text}`,
        };
      if ('blob' in contents && typeof contents.blob === 'string')
        return {
          kind: 'media',
          mimeType: contents.mimeType ?? 'application/octet-stream',
          data: contents.blob,
          uri: contents.uri,
          label: 'resource',
        };
      return { kind: 'text', text: `[resource ${String(contents?.uri)} without contents left out]` };
    }
    default:
      return {
        kind: 'text',
        text: `[content of type ${JSON.stringify((block as { type?: unknown })?.type)} left out]`,
      };
  }
}

/** A one-line stand-in for media an API cannot take. */
export function note(piece: Extract<Piece, { kind: 'media' }>, why: string): string {
  const bytes = Math.floor((piece.data.replace(/=+$/, '').length * 3) / 4);
  return `[${piece.label}${piece.uri === undefined ? '' : ` ${piece.uri}`} (${piece.mimeType}, ${bytes} bytes) left out: ${why}]`;
}

export function dataUrl(piece: Extract<Piece, { kind: 'media' }>): string {
  return `data:${piece.mimeType};base64,${piece.data}`;
}

/** The last path segment of the piece's URI, else `document.pdf`. */
export function fileName(piece: Extract<Piece, { kind: 'media' }>): string {
  const last = piece.uri
    ?.split(/[/?#]/)
    .filter((s) => s !== '')
    .pop();
  return last !== undefined && last !== '' && !last.endsWith(':') ? last : 'document.pdf';
}
