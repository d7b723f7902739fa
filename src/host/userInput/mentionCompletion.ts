/**
 * `host.completeMention(prefix)`: what an `@…` being typed can become. Before a server is
 * named: the servers, and every listed resource and template whose URI or name matches. After
 * `@server:`: that server's resources and templates, and first the template the typed URI fits
 * (RFC 6570, read as `matchUriTemplates` reads a URI: a simple `{var}` never spans a `/`, a
 * `{+var}` may). When the text ends inside one of that template's variables, that variable's
 * values come through `completion/complete`, with the variables before it as
 * `context.arguments`, each as the whole `@server:uri` so far; when it ends inside a literal,
 * the template is offered completed through that literal. Candidates are distinct; servers and
 * templates (few, and each standing for many resources) are always in the first page.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import type * as UriTemplates from '../../resources/uriTemplate.js';
import type * as UriTemplateMatching from '../../resources/uriTemplateMatch.js';
import type { HostResource, HostResourceTemplate } from '../catalog/catalog.js';
import type { CompleterPool } from './completerPool.js';
import { MAX_CANDIDATES, matchRank, type CompletionCandidate, type HostCompletion } from './completionCandidates.js';

/** What mention completion needs of the host. */
export interface MentionCompletionDeps {
  servers(): readonly string[];
  resources(): readonly HostResource[];
  resourceTemplates(): readonly HostResourceTemplate[];
  /**
   * The RFC 6570 parser, expander and matcher of `src/resources/`, handed over by the host:
   * this module loads on first use, and so imports no file the entries reach (docs/design.md).
   */
  templates: Pick<typeof UriTemplates, 'parseUriTemplate' | 'expandUriTemplate'> &
    Pick<typeof UriTemplateMatching, 'matchUriTemplates'>;
}

/** Where typed text stands in one template. */
type Fit =
  | {
      /** It ends inside `variable` (typed so far: `value`), the variables before it in `context`. */
      kind: 'variable';
      variable: string;
      value: string;
      context: Record<string, string>;
      /** The template up to the end of the expression the text ends in. */
      prefix: string;
    }
  | {
      /** It ends inside a literal: `uri` is the text completed through that literal. */
      kind: 'literal';
      uri: string;
    };

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
  const templates = deps
    .resourceTemplates()
    .filter((entry) => server === undefined || entry.server === server)
    .map((entry) => ({ entry, fit: fitOf(deps.templates, entry.resourceTemplate.uriTemplate, query) }));

  // Inside a template's variable: ask the server for its values.
  const inVariable = server === undefined ? undefined : templates.find((t) => t.fit?.kind === 'variable');
  if (server !== undefined && inVariable !== undefined && inVariable.fit?.kind === 'variable') {
    const { entry, fit } = inVariable;
    const completer = pool.get(server, { type: 'ref/resource', uri: entry.resourceTemplate.uriTemplate });
    const outcome = await completer.complete(fit.variable, fit.value, fit.context, { signal });
    if (outcome.status === 'superseded') return outcome;
    if (outcome.status === 'unsupported')
      return { status: 'unsupported', reason: outcome.reason, argument: fit.variable };
    const label = entry.resourceTemplate.title ?? entry.resourceTemplate.name;
    const values = new Set(
      outcome.values.map(
        (v) => `@${server}:${deps.templates.expandUriTemplate(fit.prefix, { ...fit.context, [fit.variable]: v })}`,
      ),
    );
    return {
      status: 'completed',
      kind: 'mention',
      replace,
      candidates: [...values].map((value) => ({ value, insert: value, label, kind: 'value' })),
      ...(outcome.total !== undefined && { total: outcome.total }),
      ...(outcome.hasMore !== undefined && { hasMore: outcome.hasMore }),
      source: outcome.source,
      argument: fit.variable,
    };
  }

  const ranked: Array<{ rank: number; order: number; candidate: CompletionCandidate }> = [];
  const seen = new Set<string>();
  const add = (rank: number, candidate: CompletionCandidate): void => {
    if (seen.has(candidate.value)) return;
    seen.add(candidate.value);
    ranked.push({ rank, order: ranked.length, candidate });
  };
  if (server === undefined)
    for (const name of deps.servers()) {
      const rank = matchRank(body, [name]);
      if (rank !== undefined) add(rank, { value: `@${name}:`, insert: `@${name}:`, kind: 'server' });
    }
  for (const { entry, fit } of templates) {
    const { uriTemplate, name, title, description } = entry.resourceTemplate;
    const rank =
      fit?.kind === 'literal' ? 0 : matchRank(query, [uriTemplate, name, ...(title === undefined ? [] : [title])]);
    if (rank === undefined) continue;
    const value = `@${entry.server}:${fit?.kind === 'literal' ? fit.uri : literalStart(uriTemplate)}`;
    add(rank, {
      value,
      insert: value,
      label: `${title ?? name} (${uriTemplate})`,
      ...(description !== undefined && { description }),
      kind: 'template',
    });
  }
  for (const entry of deps.resources()) {
    if (server !== undefined && entry.server !== server) continue;
    const { uri, name, title, description } = entry.resource;
    const rank = matchRank(query, [uri, name, ...(title === undefined ? [] : [title])]);
    if (rank === undefined) continue;
    const value = `@${entry.server}:${uri}`;
    add(rank, {
      value,
      insert: value,
      label: title ?? name,
      ...(description !== undefined && { description }),
      kind: 'resource',
    });
  }
  const byRank = (a: { rank: number; order: number }, b: { rank: number; order: number }): number =>
    a.rank - b.rank || a.order - b.order;
  ranked.sort(byRank);
  // Servers and templates first claim their places in the page; the resources fill the rest.
  const few = ranked.filter((r) => r.candidate.kind !== 'resource').slice(0, MAX_CANDIDATES);
  const page = [...few, ...ranked.filter((r) => r.candidate.kind === 'resource').slice(0, MAX_CANDIDATES - few.length)];
  const candidates = page.sort(byRank).map((r) => r.candidate);
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
 * Where `typed` stands in `uriTemplate`: in which variable it ends (the latest one it can, so
 * a typed literal moves on to the next variable), else in which literal; `undefined` when it
 * leaves the template. Form-style and path-style parameters (`?`, `&`, `;`) carry names: the
 * text is never read as ending in one.
 */
function fitOf(templates: MentionCompletionDeps['templates'], uriTemplate: string, typed: string): Fit | undefined {
  let parts;
  try {
    parts = templates.parseUriTemplate(uriTemplate).parts;
  } catch {
    return undefined;
  }
  // Where each part ends in the template's text (literals never hold a brace).
  const ends: number[] = [];
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      const open = uriTemplate.indexOf('{', at);
      at = open < 0 ? uriTemplate.length : open;
    } else at = uriTemplate.indexOf('}', at) + 1;
    ends.push(at);
  }
  const match = (text: string, template: string): Record<string, string | string[]> | undefined => {
    if (template === '') return text === '' ? {} : undefined;
    try {
      return templates.matchUriTemplates(text, [template])[0]?.variables;
    } catch {
      return undefined;
    }
  };
  for (let k = parts.length - 1; k >= 0; k--) {
    const part = parts[k];
    if (part === undefined || typeof part === 'string' || ['?', '&', ';'].includes(part.operator)) continue;
    const variable = part.variables[part.variables.length - 1]?.name;
    const prefix = uriTemplate.slice(0, ends[k]);
    const variables = variable === undefined ? undefined : match(typed, prefix);
    const value = variables?.[variable as string];
    if (variables === undefined || typeof value !== 'string') continue;
    const context: Record<string, string> = {};
    for (const [name, v] of Object.entries(variables))
      if (name !== variable && typeof v === 'string') context[name] = v;
    return { kind: 'variable', variable: variable as string, value, context, prefix };
  }
  for (let k = parts.length - 1; k >= 0; k--) {
    if (typeof parts[k] !== 'string') continue;
    const start = k === 0 ? 0 : (ends[k - 1] as number);
    const literal = uriTemplate.slice(start, ends[k]);
    // Typed: the template before the literal, then `j` characters of it (none only at the start).
    for (let j = Math.min(literal.length, typed.length); j >= (start === 0 ? 0 : 1); j--) {
      if (!typed.endsWith(literal.slice(0, j))) continue;
      const before = typed.slice(0, typed.length - j);
      if (match(before, uriTemplate.slice(0, start)) !== undefined) return { kind: 'literal', uri: before + literal };
    }
  }
  return undefined;
}
