/**
 * Resources mentioned in a message as `@server:uri` (as Claude Code writes them): found in the
 * text, read through the host (`host.readResource` on that server: its cache, its templates),
 * and returned as content for the model, within a budget of characters. A mention that would
 * pass the budget becomes a resource link with a note; one that names no server, or that the
 * server cannot read, is reported, never dropped silently.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import type { ContentBlock, ReadResourceResult, Resource } from '../../wire/protocol.js';
import type { MessagesFor, PromptApi } from '../models/promptMessages.js';

/** One `@server:uri` of a text. */
export interface Mention {
  /** The mention as typed: `@example:demo://greeting/Ada`. */
  readonly text: string;
  /** Its offsets in the text (UTF-16 units). */
  readonly start: number;
  readonly end: number;
  readonly server: string;
  readonly uri: string;
}

/** What became of one mention. */
export type ResolvedMention = Mention &
  (
    | {
        /** Its contents are in `content`. */
        readonly status: 'included';
        /** Characters it took of the budget (text, or the base64 of a blob). */
        readonly chars: number;
      }
    | {
        /** Over the budget: `content` holds a resource link and a note instead. */
        readonly status: 'linked';
        /** Its size in characters (read) or the listing's `size` in bytes (not read). */
        readonly chars: number;
      }
    | {
        /** `unknown-server`: no server by that name; `failed`: the read failed (`error`). */
        readonly status: 'unknown-server' | 'failed';
        readonly error: Error;
      }
  );

/** Options of `host.resolveMentions`. */
export interface ResolveMentionsOptions<A extends PromptApi | undefined = undefined> {
  /** Also write `messages` for this model API (the prompt converters). @default none */
  api?: A;
  /**
   * The most characters of resource contents the mentions add (text, or the base64 of a blob);
   * each mention that would pass it is linked instead. @default 100000
   */
  maxChars?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** What `host.resolveMentions` resolves with. */
export interface ResolvedMentions<A extends PromptApi | undefined = undefined> {
  /** Every mention of the text, in order (one per distinct `@server:uri`). */
  mentions: ResolvedMention[];
  /** The mentions that could not be read (`unknown-server`, `failed`). */
  unresolved: ResolvedMention[];
  /**
   * The text, then for each mention its contents (embedded resources), or a resource link and a
   * note: MCP content blocks, in order.
   */
  content: ContentBlock[];
  /** `content` as user messages of `options.api` (one per block, the text first). */
  messages: A extends PromptApi ? MessagesFor<A> : undefined;
}

/** What resolving needs of the host. */
export interface MentionDeps {
  servers(): readonly string[];
  readResource(uri: string, options: { server: string; signal?: AbortSignal | undefined }): Promise<ReadResourceResult>;
  /** The listing entry of `uri` on `server`, when it lists it. */
  listed(server: string, uri: string): Resource | undefined;
}

/** The default budget of `resolveMentions`, in characters. */
export const DEFAULT_MENTION_MAX_CHARS = 100_000;

/**
 * Every `@server:uri` in `text`: an `@` at the start or after whitespace or `(`, the server
 * name up to the first `:`, and the URI up to the next whitespace (without trailing `.,;:!?`,
 * nor a `)` it does not open). `servers` are matched first, longest first, so a server whose
 * name holds `:` is found.
 */
export function findMentions(text: string, servers: readonly string[]): Mention[] {
  const found: Mention[] = [];
  const names = [...servers].sort((a, b) => b.length - a.length);
  const pattern = /(^|[\s(])@(\S+)/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const start = match.index + (match[1] as string).length;
    const body = match[2] as string;
    const server = names.find((name) => body.startsWith(`${name}:`)) ?? body.slice(0, Math.max(0, body.indexOf(':')));
    if (server === '') continue;
    let uri = body.slice(server.length + 1);
    uri = uri.replace(/[.,;:!?]+$/, '');
    while (uri.endsWith(')') && count(uri, '(') < count(uri, ')')) uri = uri.slice(0, -1).replace(/[.,;:!?]+$/, '');
    if (uri === '') continue;
    const typed = `@${server}:${uri}`;
    found.push({ text: typed, start, end: start + typed.length, server, uri });
  }
  return found;
}

/**
 * Reads the mentions of `text` (see the module comment); the host writes `messages` from
 * `content` (the prompt converters are in its initial load).
 */
export async function resolveMentionsOf(
  text: string,
  deps: MentionDeps,
  options: ResolveMentionsOptions<PromptApi | undefined>,
): Promise<Omit<ResolvedMentions, 'messages'>> {
  if (typeof text !== 'string') throw new InvalidArgumentError('text', text, 'expected a string');
  const maxChars = options.maxChars ?? DEFAULT_MENTION_MAX_CHARS;
  if (typeof maxChars !== 'number' || !Number.isSafeInteger(maxChars) || maxChars < 0)
    throw new InvalidArgumentError('maxChars', maxChars, 'expected an integer ≥ 0 (characters)');
  const servers = new Set(deps.servers());
  const seen = new Set<string>();
  const mentions = findMentions(text, [...servers]).filter((m) => !seen.has(m.text) && seen.add(m.text));

  // Read them all at once; the budget is then spent in the order they appear.
  const reads = mentions.map(async (mention): Promise<ReadResourceResult | Error | 'too-big'> => {
    if (!servers.has(mention.server)) return new Error(`no server named ${JSON.stringify(mention.server)}`);
    const size = deps.listed(mention.server, mention.uri)?.size;
    if (typeof size === 'number' && size > maxChars) return 'too-big';
    try {
      return await deps.readResource(mention.uri, { server: mention.server, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return error instanceof Error ? error : new Error(String(error));
    }
  });
  const outcomes = await Promise.all(reads);

  let left = maxChars;
  const resolved: ResolvedMention[] = [];
  const content: ContentBlock[] = [{ type: 'text', text }];
  mentions.forEach((mention, i) => {
    const outcome = outcomes[i] as ReadResourceResult | Error | 'too-big';
    if (outcome instanceof Error) {
      resolved.push({
        ...mention,
        status: servers.has(mention.server) ? 'failed' : 'unknown-server',
        error: outcome,
      });
      return;
    }
    const listed = deps.listed(mention.server, mention.uri);
    const chars =
      outcome === 'too-big'
        ? (listed?.size ?? 0)
        : outcome.contents.reduce((sum, c) => sum + ('text' in c ? c.text.length : c.blob.length), 0);
    if (outcome === 'too-big' || chars > left) {
      resolved.push({ ...mention, status: 'linked', chars });
      content.push({
        type: 'resource_link',
        uri: mention.uri,
        name: listed?.name ?? mention.uri,
        ...(listed?.mimeType !== undefined && { mimeType: listed.mimeType }),
      });
      content.push({
        type: 'text',
        text: `[${mention.text} is ${outcome === 'too-big' ? `${chars} bytes` : `${chars} characters`}, over the ${left} left of the context budget: linked, not included]`,
      });
      return;
    }
    left -= chars;
    resolved.push({ ...mention, status: 'included', chars });
    for (const contents of outcome.contents) content.push({ type: 'resource', resource: contents });
  });

  return {
    mentions: resolved,
    unresolved: resolved.filter((m) => m.status === 'unknown-server' || m.status === 'failed'),
    content,
  };
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}
