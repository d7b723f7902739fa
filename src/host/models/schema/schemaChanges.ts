/**
 * What a schema normaliser changed on the way to a model API: the keywords it dropped (their
 * constraint is no longer enforced by the API, and is written into the description instead)
 * and the places where it widened the schema (it now accepts more than the server's schema).
 * Rewrites that keep the meaning (`nullable` to a type list, `const` to a one-value `enum`,
 * inlined `$ref`s, merged `allOf`s) are not changes.
 */

/** The model APIs the converters write for. */
export type ModelApi = 'openAiChat' | 'openAiResponses' | 'anthropic' | 'gemini' | 'geminiOpenApi';

/** One thing a normaliser dropped or widened. */
export interface SchemaChange {
  /** JSON Pointer to the schema node, in the schema as converted (`""` is the root). */
  readonly path: string;
  /** The keyword concerned (`minLength`, `oneOf`, `prefixItems`...). */
  readonly keyword: string;
  /** `dropped`: the keyword is gone (kept in the description); `widened`: the node accepts more. */
  readonly kind: 'dropped' | 'widened';
  /** What happened, in a few words. */
  readonly note: string;
}

/** Everything one tool's conversion for one API changed, reported once per tool and call. */
export interface SchemaReport {
  readonly api: ModelApi;
  /** The name the model sees (the exposed name, or the tool's own name). */
  readonly tool: string;
  /** What was dropped or widened; empty when only strict mode is being reported. */
  readonly changes: readonly SchemaChange[];
  /**
   * OpenAI only: whether the tool went out with `strict: true`, and when `strict: 'auto'` fell
   * back, why (the first thing strict mode cannot say).
   */
  readonly strict?: { readonly used: boolean; readonly reason?: string | undefined } | undefined;
}

/** Receives one {@link SchemaReport} per tool that changed (or fell back from strict mode). */
export type SchemaReportListener = (report: SchemaReport) => void;

/**
 * A listener that forwards each distinct report once: the same tool, converted the same way
 * on every turn, is reported the first time only. The memory is the returned function's own
 * (no global state); `limit` bounds it.
 * @param limit how many distinct reports to remember. @default 1000
 */
export function reportOnce(listener: SchemaReportListener, limit = 1000): SchemaReportListener {
  const seen = new Set<string>();
  return (report) => {
    const key = JSON.stringify(report);
    if (seen.has(key)) return;
    if (seen.size >= limit) seen.clear();
    seen.add(key);
    listener(report);
  };
}
