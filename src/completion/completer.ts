/**
 * Completion as a user types (spec: server/utilities/completion, which asks clients to debounce
 * rapid requests and cache results): one {@link Completer} per prompt or resource template,
 * called on every keystroke. Independent of the client: it reaches the server through
 * {@link CompleterDeps}: debounce, supersede, the short answer cache, the result checks.
 */
import { abortedError, InvalidArgumentError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { PromptReference, ResourceTemplateReference } from '../wire/protocol.js';
import type { TimerHandle } from '../util/clock.js';
import { checkCompleteResult } from './completeResult.js';
import type {
  Completer,
  CompleterDeps,
  CompletionAnswer,
  CompletionOutcome,
  CompletionSuperseded,
  ResolvedCompleterOptions,
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

/**
 * A completer over `host`.
 * @throws InvalidArgumentError (-32602) for an invalid ref or option.
 */
export function createCompleter(
  host: CompleterDeps,
  ref: PromptReference | ResourceTemplateReference,
  options: CompleterOptions = {},
): Completer {
  const checked = checkRef(ref);
  const resolved = resolveOptions(options);
  return new DebouncedCompleter(host, checked, resolved);
}

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

const METHOD = 'completion/complete';
const SUPERSEDED: CompletionSuperseded = Object.freeze({ status: 'superseded' });

interface PendingCall {
  generation: number;
  key: string;
  params: JsonObject;
  resolve(outcome: CompletionOutcome): void;
  reject(error: unknown): void;
  /** Removes the caller's abort listener. */
  release(): void;
}

/** A completer over `host` with options already checked. */
export class DebouncedCompleter implements Completer {
  private pending: PendingCall | undefined;
  private timer: TimerHandle;
  private inflight: AbortController | undefined;
  private generation = 0;
  private closed = false;
  private readonly answers = new Map<string, { expiresAt: number; answer: CompletionAnswer }>();

  constructor(
    private readonly host: CompleterDeps,
    readonly ref: PromptReference | ResourceTemplateReference,
    private readonly options: ResolvedCompleterOptions,
  ) {}

  complete(
    argument: string,
    value: string,
    context: Readonly<Record<string, string>> = {},
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<CompletionOutcome> {
    try {
      checkInput(argument, value, context);
    } catch (error) {
      return Promise.reject(error);
    }
    this.supersede();
    if (this.closed) return Promise.resolve(SUPERSEDED);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortedError(METHOD, signal.reason));
    const capabilities = this.host.capabilities();
    if (capabilities !== undefined && capabilities.completions === undefined)
      return Promise.resolve({
        status: 'unsupported',
        values: [],
        reason: 'the server does not declare the completions capability',
      });
    const key = cacheKey(argument, value, context);
    const cached = this.cached(key);
    if (cached !== undefined) return Promise.resolve(cached);

    const params: JsonObject = { ref: { ...this.ref }, argument: { name: argument, value } };
    if (Object.keys(context).length > 0) params['context'] = { arguments: { ...context } };
    const generation = ++this.generation;
    return new Promise<CompletionOutcome>((resolve, reject) => {
      const onAbort = (): void => {
        if (this.pending?.generation !== generation) return;
        this.stop('cancelled by the client');
        this.pending = undefined;
        reject(abortedError(METHOD, signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        generation,
        key,
        params,
        resolve,
        reject,
        release: () => signal?.removeEventListener('abort', onAbort),
      };
      if (this.options.debounceMs === 0) this.send(generation);
      else this.timer = this.host.timers.setTimeout(() => this.send(generation), this.options.debounceMs);
    });
  }

  close(): void {
    this.supersede();
    this.closed = true;
    this.answers.clear();
  }

  /** Resolves the pending call `superseded` and cancels its timer or request. */
  private supersede(): void {
    const call = this.pending;
    if (call === undefined) return;
    this.pending = undefined;
    this.stop('superseded by a newer completion request');
    call.release();
    call.resolve(SUPERSEDED);
  }

  /** Clears the debounce timer and aborts the request in flight (which cancels it on the wire). */
  private stop(reason: string): void {
    if (this.timer !== undefined) this.host.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.inflight?.abort(reason);
    this.inflight = undefined;
  }

  private send(generation: number): void {
    this.timer = undefined;
    const call = this.pending;
    if (call === undefined || call.generation !== generation) return;
    const controller = new AbortController();
    this.inflight = controller;
    const latest = (): boolean => this.pending?.generation === generation;
    const settle = (): void => {
      this.pending = undefined;
      this.inflight = undefined;
      call.release();
    };
    Promise.resolve()
      .then(() => this.host.send(call.params, controller.signal, this.options.timeoutMs))
      .then(
        (raw) => {
          const { result, trimmed } = checkCompleteResult(raw, (error) => this.host.onError(error));
          const { values, total, hasMore } = result.completion;
          const answer: CompletionAnswer = {
            status: 'completed',
            values,
            ...(total !== undefined && { total }),
            ...(hasMore !== undefined && { hasMore }),
            trimmed,
            source: 'server',
          };
          this.remember(call.key, answer);
          if (!latest()) return;
          settle();
          call.resolve(answer);
        },
        (error: unknown) => {
          if (!latest()) return;
          settle();
          call.reject(error);
        },
      )
      .catch((error: unknown) => {
        // checkCompleteResult threw: a result without values.
        if (!latest()) return;
        settle();
        call.reject(error);
      });
  }

  private cached(key: string): CompletionAnswer | undefined {
    const entry = this.answers.get(key);
    if (entry === undefined) return undefined;
    if (this.host.clock.now() >= entry.expiresAt) {
      this.answers.delete(key);
      return undefined;
    }
    return { ...entry.answer, source: 'cache' };
  }

  private remember(key: string, answer: CompletionAnswer): void {
    if (this.closed || this.options.cacheTtlMs === 0) return;
    this.answers.delete(key);
    this.answers.set(key, { expiresAt: this.host.clock.now() + this.options.cacheTtlMs, answer });
    while (this.answers.size > this.options.maxCacheEntries) {
      const oldest = this.answers.keys().next().value as string;
      this.answers.delete(oldest);
    }
  }
}

/** argument, value and context, as one key (context keys sorted). */
function cacheKey(argument: string, value: string, context: Readonly<Record<string, string>>): string {
  const entries = Object.keys(context)
    .sort()
    .map((k) => [k, context[k]]);
  return JSON.stringify([argument, value, entries]);
}

function checkInput(argument: unknown, value: unknown, context: unknown): void {
  if (typeof argument !== 'string' || argument === '')
    throw new InvalidArgumentError('argument', argument, 'expected an argument name');
  if (typeof value !== 'string') throw new InvalidArgumentError('value', value, 'expected a string');
  if (typeof context !== 'object' || context === null || Array.isArray(context))
    throw new InvalidArgumentError('context', context, 'expected an object of argument name → string');
  for (const [name, v] of Object.entries(context))
    if (typeof v !== 'string') throw new InvalidArgumentError(`context.${name}`, v, 'expected a string');
}
