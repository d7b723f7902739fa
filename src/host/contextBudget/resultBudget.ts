/**
 * A tool result bounded for the model: content routed by type (to the model, or held for the
 * app), JSON text made compact, `structuredContent` said once, and a text longer than the
 * budget cut to its head and tail around a marker that says how much was left out and how to
 * read it (`read_artifact`), the whole kept in the artifact store.
 */
import type { CallToolResult, ContentBlock } from '../../wire/protocol.js';
import { pieceOf } from '../models/modelContent.js';
import { unsaidStructuredText } from '../models/modelToolResults.js';
import type { ArtifactStore, Artifact } from './artifacts.js';
import { charsForTokens, type TokenEstimator } from './tokens.js';
import { cutEnd, cutStart } from '../../util/text.js';

/** Where a content type goes: into the model's context, or held for the host app only. */
export type ContentDestination = 'model' | 'app';

/**
 * Where each content type of a result goes. Text and resource links always go to the model.
 * @default { image: 'model', audio: 'model', resource: 'model' }
 */
export interface ContentRouting {
  image?: ContentDestination | undefined;
  audio?: ContentDestination | undefined;
  /** Embedded resources (`type: "resource"`), text or blob. */
  resource?: ContentDestination | undefined;
}

/** What the host's result budget made of a tool result: the bounded result, and what was cut. */
export interface BoundedResult {
  /** The result to convert for the model. */
  readonly result: CallToolResult;
  /** Whether the text was cut. */
  readonly truncated: boolean;
  /** Where the whole text is kept, when it was cut and the store took it. */
  readonly artifact: Artifact | undefined;
  /** Blocks routed to the app (left out of `result`, a one-line note in their place). */
  readonly forApp: readonly ContentBlock[];
}

/** @internal */
export interface BoundOptions {
  /** The most the model may see, in estimated tokens. */
  maxTokens: number;
  /** The tool's own bound in characters (`_meta["anthropic/maxResultSizeChars"]`), when it sent one. */
  hintChars?: number | undefined;
  estimator: TokenEstimator;
  route: ContentRouting;
  store: ArtifactStore;
  server: string;
  tool: string;
}

/** Share of the kept characters that go to the head (the rest is the tail). */
const HEAD_SHARE = 0.75;

/**
 * The result bounded as the module comment says. Pure but for the artifact it stores.
 * The marker and the head-and-tail never exceed the budget's characters together.
 */
export function boundResult(given: CallToolResult, options: BoundOptions): BoundedResult {
  const content: ContentBlock[] = [];
  const forApp: ContentBlock[] = [];
  for (const block of Array.isArray(given.content) ? given.content : []) {
    const destination = destinationOf(block, options.route);
    if (destination === 'app') {
      forApp.push(block);
      content.push({ type: 'text', text: `[${describe(block)} held for the app, not shown to the model]` });
    } else if (block?.type === 'text') content.push({ type: 'text', text: compactJson(String(block.text)) });
    else if (block?.type === 'resource' && 'text' in block.resource) {
      const piece = pieceOf(block);
      content.push({ type: 'text', text: piece.kind === 'text' ? piece.text : '' });
    } else content.push(block);
  }
  const structured = unsaidStructuredText(given);
  if (structured !== undefined) content.push({ type: 'text', text: structured });
  const { structuredContent: _structured, ...rest } = given;
  const texts = content.filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text');
  const whole = texts.map((b) => b.text).join('\n\n');
  const maxChars = resultCharBudget(options.maxTokens, options.hintChars, whole, options.estimator);
  if (whole.length <= maxChars) return { result: { ...rest, content }, truncated: false, artifact: undefined, forApp };

  const artifact = options.store.put({ server: options.server, tool: options.tool, text: whole, result: given });
  const cut = headAndTail(whole, maxChars, artifact?.id, options.estimator);
  const first = content.findIndex((b) => b.type === 'text');
  const out: ContentBlock[] = content.filter((b) => b.type !== 'text');
  out.splice(first, 0, { type: 'text', text: cut });
  return { result: { ...rest, content: out }, truncated: true, artifact, forApp };
}

/** The head and tail of `text` around the marker, within `maxChars` together, each cut on whole characters. */
function headAndTail(text: string, maxChars: number, id: string | undefined, estimator: TokenEstimator): string {
  // The marker's numbers depend on how much is kept, which depends on the marker's length:
  // size it for the largest numbers first.
  const draft = marker(text.length, text.length, text.length, id, estimator, text);
  const room = Math.max(0, maxChars - draft.length);
  const head = cutEnd(text, Math.floor(room * HEAD_SHARE));
  const tailStart = Math.max(head, cutStart(text, text.length - (room - head)));
  const left = tailStart - head;
  return `${text.slice(0, head)}${marker(left, head, text.length, id, estimator, text.slice(head, tailStart))}${text.slice(tailStart)}`;
}

function marker(
  left: number,
  offset: number,
  total: number,
  id: string | undefined,
  estimator: TokenEstimator,
  leftText: string,
): string {
  const how =
    id === undefined
      ? 'The whole result was too large to keep; ask for less (a narrower query, a page, a filter).'
      : `The whole result is kept as artifact ${id}: call read_artifact with {"id":"${id}","offset":${offset}} to read on from the cut.`;
  return `\n\n[… ${left} of ${total} characters (about ${estimator(leftText)} tokens) left out here. ${how}]\n\n`;
}

/** The most characters a result may keep: the token budget by the estimator, and the tool's own hint. */
export function resultCharBudget(
  tokens: number,
  hintChars: number | undefined,
  sample: string,
  estimator: TokenEstimator,
): number {
  const byTokens = charsForTokens(tokens, sample, estimator);
  return hintChars === undefined ? byTokens : Math.min(byTokens, hintChars);
}

function destinationOf(block: ContentBlock, route: ContentRouting): ContentDestination {
  switch (block?.type) {
    case 'image':
      return route.image ?? 'model';
    case 'audio':
      return route.audio ?? 'model';
    case 'resource':
      return route.resource ?? 'model';
    default:
      return 'model';
  }
}

function describe(block: ContentBlock): string {
  if (block.type === 'image' || block.type === 'audio') return `${block.type} (${block.mimeType})`;
  if (block.type === 'resource') return `resource ${block.resource.uri}`;
  return block.type;
}

/**
 * JSON text without its indentation (`JSON.stringify` of the parsed value), when that is
 * shorter; any other text as is. Only texts that start with `{` or `[` are tried.
 */
export function compactJson(text: string): string {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('[')) || !/\n|": /.test(trimmed)) return text;
  try {
    const compact = JSON.stringify(JSON.parse(trimmed));
    return compact.length < text.length ? compact : text;
  } catch {
    return text;
  }
}
