/**
 * `host.completeMention(prefix)`: what an `@…` being typed can become. Before a server is
 * named: the servers, and every listed resource and template whose URI or name matches. After
 * `@server:`: that server's resources and templates; once the text runs into a template's
 * variable, that variable's values through `completion/complete` (the variables before it as
 * context), as the full `@server:uri` so far.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type * as UriTemplates from '../resources/uriTemplate.js';
import type { UriTemplateExpression } from '../resources/uriTemplate.js';
import type { HostResource, HostResourceTemplate } from './catalog.js';
import type { CompleterPool } from './completerPool.js';
import { MAX_CANDIDATES, matchRank, type CompletionCandidate, type HostCompletion } from './completionCandidates.js';

/** What mention completion needs of the host. */
export interface MentionCompletionDeps {
  servers(): readonly string[];
  resources(): readonly HostResource[];
  resourceTemplates(): readonly HostResourceTemplate[];
  /**
   * The RFC 6570 parser and expander of `src/resources/`, handed over by the host: this module
   * loads on first use, and so imports no file the entries reach (docs/design.md).
   */
  templates: Pick<typeof UriTemplates, 'parseUriTemplate' | 'expandUriTemplate'>;
}

/**
 * Candidates for `prefix` (`@`, `@exa`, `@example:demo://gr`, `@example:demo://greeting/A`).
 * `replace` covers the whole prefix.
 * @throws InvalidArgumentError (-32602) for a prefix that is not a string.
 */
export async function completeMentionPrefix(
  prefix: string,
  deps: MentionCompletionDeps,
  pool: CompleterPool,
  signal: AbortSignal | undefined,
): Promise<HostCompletion> {
  if (typeof prefix !== 'string') throw new InvalidArgumentError('prefix', prefix, 'expected a string');
  const body = prefix.startsWith('@') ? prefix.slice(1) : prefix;
  const replace = { start: 0, end: prefix.length };
  const servers = [...deps.servers()].sort((a, b) => b.length - a.length);
  const server = servers.find((name) => body.startsWith(`${name}:`));
  const query = server === undefined ? body : body.slice(server.length + 1);

  if (server !== undefined) {
    // Inside a template's variable: ask the server for its values.
    for (const entry of deps.resourceTemplates()) {
      if (entry.server !== server) continue;
      const at = variableAt(deps.templates, entry.resourceTemplate.uriTemplate, query);
      if (at === undefined) continue;
      const completer = pool.get(server, { type: 'ref/resource', uri: entry.resourceTemplate.uriTemplate });
      const outcome = await completer.complete(at.variable, at.value, at.context, { signal });
      if (outcome.status === 'superseded') return outcome;
      if (outcome.status === 'unsupported')
        return { status: 'unsupported', reason: outcome.reason, argument: at.variable };
      return {
        status: 'completed',
        kind: 'mention',
        replace,
        candidates: outcome.values.map((v) => {
          const value = `@${server}:${at.before}${deps.templates.expandUriTemplate(at.expression, { [at.variable]: v })}`;
          return {
            value,
            insert: value,
            label: entry.resourceTemplate.title ?? entry.resourceTemplate.name,
            kind: 'value',
          };
        }),
        ...(outcome.total !== undefined && { total: outcome.total }),
        ...(outcome.hasMore !== undefined && { hasMore: outcome.hasMore }),
        source: outcome.source,
        argument: at.variable,
      };
    }
  }

  const ranked: Array<{ rank: number; order: number; candidate: CompletionCandidate }> = [];
  let order = 0;
  if (server === undefined)
    for (const name of deps.servers()) {
      const rank = matchRank(body, [name]);
      if (rank !== undefined)
        ranked.push({ rank, order: order++, candidate: { value: `@${name}:`, insert: `@${name}:`, kind: 'server' } });
    }
  for (const entry of deps.resources()) {
    if (server !== undefined && entry.server !== server) continue;
    const { uri, name, title, description } = entry.resource;
    const rank = matchRank(query, [uri, name, ...(title === undefined ? [] : [title])]);
    if (rank === undefined) continue;
    const value = `@${entry.server}:${uri}`;
    ranked.push({
      rank,
      order: order++,
      candidate: {
        value,
        insert: value,
        label: title ?? name,
        ...(description !== undefined && { description }),
        kind: 'resource',
      },
    });
  }
  for (const entry of deps.resourceTemplates()) {
    if (server !== undefined && entry.server !== server) continue;
    const { uriTemplate, name, title, description } = entry.resourceTemplate;
    const literal = literalStart(uriTemplate);
    const rank = matchRank(query, [uriTemplate, name, ...(title === undefined ? [] : [title])]);
    if (rank === undefined && !(query.startsWith(literal) && literal !== '')) continue;
    const value = `@${entry.server}:${literal}`;
    ranked.push({
      rank: rank ?? 0,
      order: order++,
      candidate: {
        value,
        insert: value,
        label: `${title ?? name} (${uriTemplate})`,
        ...(description !== undefined && { description }),
        kind: 'template',
      },
    });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
  const candidates = ranked.slice(0, MAX_CANDIDATES).map((r) => r.candidate);
  return {
    status: 'completed',
    kind: 'mention',
    replace,
    candidates,
    total: ranked.length,
    hasMore: ranked.length > candidates.length,
    source: 'catalog',
  };
}

/** The text of a template up to its first expression. */
function literalStart(uriTemplate: string): string {
  const at = uriTemplate.indexOf('{');
  return at < 0 ? uriTemplate : uriTemplate.slice(0, at);
}

/**
 * When `typed` runs through the template's literals into one of its expressions: that
 * expression's (first) variable, the part of it typed, the variables before it (as context),
 * and the text before it. `undefined` when `typed` leaves the template, or stops in a literal.
 */
function variableAt(
  templates: MentionCompletionDeps['templates'],
  uriTemplate: string,
  typed: string,
):
  { variable: string; value: string; context: Record<string, string>; before: string; expression: string } | undefined {
  let parts;
  try {
    parts = templates.parseUriTemplate(uriTemplate).parts;
  } catch {
    return undefined;
  }
  const context: Record<string, string> = {};
  let rest = typed;
  let before = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string | UriTemplateExpression;
    if (typeof part === 'string') {
      if (!rest.startsWith(part)) return undefined;
      rest = rest.slice(part.length);
      before += part;
      continue;
    }
    const variable = part.variables[0]?.name;
    // Form-style and path-style parameters (`?`, `&`, `;`) carry names too: not completed.
    if (variable === undefined || part.operator === '?' || part.operator === '&' || part.operator === ';')
      return undefined;
    const lead = part.operator === '' || part.operator === '+' ? '' : part.operator === '#' ? '#' : part.operator;
    if (lead !== '' && !rest.startsWith(lead) && rest !== '') return undefined;
    const next = parts[i + 1];
    const stop = typeof next === 'string' ? rest.indexOf(next[0] as string, lead.length) : -1;
    const expression = `{${part.operator}${variable}}`;
    if (stop < 0) return { variable, value: decode(rest.slice(lead.length)), context, before, expression };
    context[variable] = decode(rest.slice(lead.length, stop));
    before += rest.slice(0, stop);
    rest = rest.slice(stop);
  }
  return undefined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
