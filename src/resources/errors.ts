import { ErrorCode } from '../errors/codes.js';
import { InvalidArgumentError, LocalError, McpError } from '../errors/errors.js';

/** `data` of {@link UriTemplateError}. */
export interface UriTemplateErrorData {
  /**
   * `"uriTemplate"` when the template itself is malformed, `"variables"` when a value is,
   * `"name"` when a variable name is not one of the template's.
   */
  name: 'uriTemplate' | 'variables' | 'name';
  /** The malformed template, the offending variable value, or the unknown name. */
  value: unknown;
  /** The template as given. */
  template: string;
  /** The variable whose value (or varspec) is at fault, when one is. */
  variable?: string | undefined;
  /** 0-based index into `template` where the template stops being RFC 6570, when it is malformed. */
  position?: number | undefined;
}

/**
 * A URI template that breaks RFC 6570's grammar (§2), or a variable value it cannot expand (a
 * prefix `:n` on a list or map, a nested object, a string with a lone surrogate, a number that
 * is not finite). An {@link InvalidArgumentError} (code -32602): nothing was sent. `data` names
 * the template and, for a value, the variable ({@link UriTemplateErrorData}).
 */
export class UriTemplateError extends InvalidArgumentError {
  override name = 'UriTemplateError';
  declare readonly data: UriTemplateErrorData;

  constructor(reason: string, data: UriTemplateErrorData) {
    super(data.name, data.value, `${reason} (template ${JSON.stringify(data.template)})`, { ...data });
  }
}

/** One candidate in {@link UriTemplateAmbiguityErrorData}. */
export interface AmbiguousMatch {
  /** The template that matched. */
  uriTemplate: string;
  /** The variable values of the first way it matched. */
  variables: Record<string, string | string[]>;
  /** True when this template alone matches the URI in more than one way. */
  ambiguous: boolean;
}

/** `data` of {@link UriTemplateAmbiguityError}. */
export interface UriTemplateAmbiguityErrorData {
  /** The URI being matched. */
  uri: string;
  /** Every template that matched it, in the order given. */
  matches: AmbiguousMatch[];
}

/**
 * A URI matches more than one of the given resource templates, or one template in more than
 * one way (code -33026, local). The matcher never picks one: `data.matches` lists them all
 * ({@link UriTemplateAmbiguityErrorData}).
 */
export class UriTemplateAmbiguityError extends LocalError {
  override name = 'UriTemplateAmbiguityError';
  declare readonly data: UriTemplateAmbiguityErrorData;

  constructor(data: UriTemplateAmbiguityErrorData) {
    const which = data.matches.map((m) => m.uriTemplate).join(', ');
    super(
      ErrorCode.UriTemplateAmbiguous,
      data.matches.length === 1
        ? `${data.uri} matches ${which} in more than one way`
        : `${data.uri} matches ${data.matches.length} templates: ${which}`,
      { data },
    );
  }
}

/** True for a {@link UriTemplateAmbiguityError}, whichever copy of the package made it. */
export function isUriTemplateAmbiguityError(value: unknown): value is UriTemplateAmbiguityError {
  return McpError.is(value) && value.code === ErrorCode.UriTemplateAmbiguous;
}
