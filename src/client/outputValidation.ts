import type { OutputUnit, Validator } from '@cfworker/json-schema';
import { ErrorCode } from '../errors/codes.js';
import { LocalError, ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type { CallToolResult, Tool } from '../wire/protocol.js';
import { requireArray } from '../wire/results.js';
import type { MaybePromise } from '../util/maybePromise.js';
import { onDemand } from '../errors/moduleLoad.js';

/** `@cfworker/json-schema`, loaded the first time a listed tool's output is checked. */
type ValidatorModule = typeof import('@cfworker/json-schema');

const loadValidatorLibrary = onDemand('output-validation', () => import('@cfworker/json-schema'));

/** `data` of a {@link ToolOutputValidationError}. */
export interface ToolOutputValidationErrorData {
  /** The tool that was called. */
  tool: string;
  /** What broke the tool's `outputSchema` (JSON Schema output units; at most 10). */
  errors: Array<{ instanceLocation: string; keywordLocation: string; error: string }>;
  /** The whole `tools/call` result as received, so nothing the server sent is lost. */
  result: JsonObject;
}

/**
 * A `tools/call` result whose `structuredContent` breaks the `outputSchema` the tool declared in
 * `tools/list`, or is missing although the tool declares one (spec: server/tools, Output
 * Schema: servers MUST return structured results that conform, clients SHOULD validate).
 * Local code -33016; `data` is {@link ToolOutputValidationErrorData}.
 */
export class ToolOutputValidationError extends LocalError {
  override name = 'ToolOutputValidationError';
  constructor(data: ToolOutputValidationErrorData) {
    super(ErrorCode.ToolOutputInvalid, `${data.tool}: structuredContent does not match the tool's outputSchema`, {
      data,
    });
  }
}

/**
 * The output schemas of the tools a client has listed, compiled on first use (JSON Schema
 * 2020-12 unless the schema names its dialect; `@cfworker/json-schema`, which never fetches a
 * remote `$ref`). Each listing replaces what was known of a tool; a schema that cannot be
 * compiled is reported once and that tool's output is not checked. The validator library is
 * loaded (dynamic `import()`) when the first tool with an `outputSchema` is listed, so a client
 * whose tools declare none never loads it, and a bundler puts it in a chunk of its own.
 */
export class ToolOutputValidators {
  private readonly schemas = new Map<string, JsonObject>();
  private readonly compiled = new Map<string, Validator | null>();
  /** The validator library once loaded. */
  private library: ValidatorModule | undefined;

  constructor(private readonly report: (error: Error) => void) {}

  /** Records the `outputSchema` of each listed tool (and forgets it for a tool that has none). */
  learn(tools: readonly Tool[]): void {
    for (const tool of tools) {
      const schema = tool.outputSchema;
      this.compiled.delete(tool.name);
      if (isObject(schema)) this.schemas.set(tool.name, schema);
      else this.schemas.delete(tool.name);
    }
    // Start loading now, so that a call right after the listing rarely waits for it.
    if (this.schemas.size > 0) void this.load().catch(() => {});
  }

  private load(): Promise<ValidatorModule> {
    return loadValidatorLibrary().then((library) => (this.library = library));
  }

  /**
   * Checks a complete `tools/call` result. Results with `isError: true` and tools never listed
   * with an `outputSchema` pass unchecked, synchronously; the others wait for the validator
   * library when it is not loaded yet.
   * @throws ToolOutputValidationError (-33016) when `structuredContent` is missing or invalid.
   */
  check(tool: string, result: JsonObject): MaybePromise<void> {
    if (result['isError'] === true || !this.schemas.has(tool)) return;
    if (this.library === undefined) return this.load().then(() => this.check(tool, result));
    const validator = this.validatorFor(tool, this.library);
    if (validator === undefined) return;
    const structured = result['structuredContent'];
    if (structured === undefined) {
      throw new ToolOutputValidationError({
        tool,
        errors: [{ instanceLocation: '#', keywordLocation: '#', error: 'structuredContent is missing' }],
        result,
      });
    }
    const outcome = validator.validate(structured);
    if (!outcome.valid) {
      throw new ToolOutputValidationError({ tool, errors: outcome.errors.slice(0, 10).map(unit), result });
    }
  }

  private validatorFor(tool: string, library: ValidatorModule): Validator | undefined {
    const known = this.compiled.get(tool);
    if (known !== undefined) return known ?? undefined;
    const schema = this.schemas.get(tool);
    if (schema === undefined) return undefined;
    try {
      // A copy: listed tools may be frozen (cached results are), and the validator annotates
      // the schema it is given.
      const validator = new library.Validator(structuredClone(schema), '2020-12', false);
      this.compiled.set(tool, validator);
      return validator;
    } catch (error) {
      this.compiled.set(tool, null);
      this.report(
        new ProtocolError(
          `tool ${JSON.stringify(tool)}: outputSchema cannot be compiled; its output is not checked (${String(error)})`,
          { method: 'tools/list', value: schema },
        ),
      );
      return undefined;
    }
  }
}

function unit(u: OutputUnit): { instanceLocation: string; keywordLocation: string; error: string } {
  return { instanceLocation: u.instanceLocation, keywordLocation: u.keywordLocation, error: u.error };
}

/** The checks every `tools/call` result passes, task or not. */
export function checkToolResult(
  validators: ToolOutputValidators,
  name: string | undefined,
  result: JsonObject,
): MaybePromise<CallToolResult> {
  requireArray('tools/call', result, 'content');
  const checked = name === undefined ? undefined : validators.check(name, result);
  return checked === undefined ? (result as CallToolResult) : checked.then(() => result as CallToolResult);
}
