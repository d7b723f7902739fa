/**
 * Completion as a user types (spec: server/utilities/completion, which asks clients to debounce
 * rapid requests and cache results): one {@link Completer} per prompt or resource template,
 * called on every keystroke. Independent of the client: it reaches the server through
 * {@link CompleterHost}. The options are checked here; the completer itself
 * (`debouncedCompleter.ts`) loads with the first call of the first completer.
 */
import { abortedError, InvalidArgumentError } from '../errors/errors.js';
import { onDemand } from '../errors/moduleLoad.js';
import type { PromptReference, ResourceTemplateReference } from '../wire/protocol.js';
import type { Completer, CompleterHost, CompletionOutcome, ResolvedCompleterOptions } from './types.js';

export type {
  Completer,
  CompleterHost,
  CompletionAnswer,
  CompletionOutcome,
  CompletionSuperseded,
  CompletionUnsupported,
} from './types.js';

/** Options of `client.completer(ref, options)`. */
export interface CompleterOptions {
  /**
   * How long a call waits, in ms, before its request is sent; a newer call in that time takes
   * its place. `0` sends at once (a newer call then cancels the request in flight). @default 150
   */
  debounceMs?: number | undefined;
  /**
   * How long an answer is reused for the same argument, value and context, in ms (completion
   * results carry no `ttlMs`; this is the client's own short cache). `0` turns it off.
   * @default 30000
   */
  cacheTtlMs?: number | undefined;
  /** The most answers kept; the oldest goes first. @default 200 */
  maxCacheEntries?: number | undefined;
  /** Idle timeout of each request, in ms. @default the client's `timeoutMs` */
  timeoutMs?: number | undefined;
}

/** Default debounce of a completer, in ms. */
export const DEFAULT_COMPLETION_DEBOUNCE_MS = 150;
/** Default lifetime of a cached completion answer, in ms. */
export const DEFAULT_COMPLETION_CACHE_TTL_MS = 30_000;

/** The debounced completer, loaded with the first call of the first completer. */
const loadCompleter = onDemand('completion', () =>
  import('./debouncedCompleter.js').then((module) => module.DebouncedCompleter),
);

/**
 * A completer over `host`.
 * @throws InvalidArgumentError (-32602) for an invalid ref or option.
 */
export function createCompleter(
  host: CompleterHost,
  ref: PromptReference | ResourceTemplateReference,
  options: CompleterOptions = {},
): Completer {
  const checked = checkRef(ref);
  const resolved = resolveOptions(options);
  const Loaded = loadCompleter.value;
  return Loaded === undefined ? new LoadingCompleter(host, checked, resolved) : new Loaded(host, checked, resolved);
}

/**
 * A completer whose code is still loading. Only the latest call waits for it, as only the
 * latest would be answered: a call made while another waits supersedes it at once.
 */
class LoadingCompleter implements Completer {
  private completer: Completer | undefined;
  private waiting: { settle(completer: Completer | undefined, error?: Error): void } | undefined;
  private loading = false;
  private closed = false;

  constructor(
    private readonly host: CompleterHost,
    readonly ref: PromptReference | ResourceTemplateReference,
    private readonly options: ResolvedCompleterOptions,
  ) {}

  complete(
    argument: string,
    value: string,
    context?: Readonly<Record<string, string>>,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<CompletionOutcome> {
    if (this.completer !== undefined) return this.completer.complete(argument, value, context, options);
    this.waiting?.settle(undefined);
    if (this.closed) return Promise.resolve(SUPERSEDED);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortedError(METHOD, signal.reason));
    return new Promise<CompletionOutcome>((resolve, reject) => {
      const onAbort = (): void => {
        if (this.waiting !== entry) return;
        this.waiting = undefined;
        reject(abortedError(METHOD, signal?.reason));
      };
      const entry = {
        settle: (completer: Completer | undefined, error?: Error): void => {
          signal?.removeEventListener('abort', onAbort);
          if (this.waiting === entry) this.waiting = undefined;
          if (error !== undefined) reject(error);
          else if (completer === undefined) resolve(SUPERSEDED);
          else completer.complete(argument, value, context, options).then(resolve, reject);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = entry;
      this.load();
    });
  }

  close(): void {
    this.closed = true;
    this.waiting?.settle(undefined);
    this.completer?.close();
  }

  private load(): void {
    if (this.loading) return;
    this.loading = true;
    loadCompleter().then(
      (Loaded) => {
        this.loading = false;
        const completer = new Loaded(this.host, this.ref, this.options);
        if (this.closed) completer.close();
        this.completer = completer;
        this.waiting?.settle(completer);
      },
      (error: unknown) => {
        this.loading = false;
        this.waiting?.settle(undefined, error instanceof Error ? error : new Error(String(error)));
      },
    );
  }
}

const METHOD = 'completion/complete';
const SUPERSEDED: CompletionOutcome = Object.freeze({ status: 'superseded' });

function checkRef(ref: PromptReference | ResourceTemplateReference): PromptReference | ResourceTemplateReference {
  if (typeof ref === 'object' && ref !== null) {
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string' && ref.name !== '') return ref;
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string' && ref.uri !== '') return ref;
  }
  throw new InvalidArgumentError('ref', ref, 'expected { type: "ref/prompt", name } or { type: "ref/resource", uri }');
}

function resolveOptions(options: CompleterOptions): ResolvedCompleterOptions {
  const nonNegative = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new InvalidArgumentError(name, value, 'expected a finite number ≥ 0 (ms)');
    return value;
  };
  const maxCacheEntries = options.maxCacheEntries ?? 200;
  if (!Number.isSafeInteger(maxCacheEntries) || maxCacheEntries < 1)
    throw new InvalidArgumentError('maxCacheEntries', maxCacheEntries, 'expected a positive integer');
  return {
    debounceMs: nonNegative('debounceMs', options.debounceMs, DEFAULT_COMPLETION_DEBOUNCE_MS),
    cacheTtlMs: nonNegative('cacheTtlMs', options.cacheTtlMs, DEFAULT_COMPLETION_CACHE_TTL_MS),
    maxCacheEntries,
    timeoutMs: options.timeoutMs,
  };
}
