/**
 * Checks on a `completion/complete` result (spec: server/utilities/completion): `values` must be
 * an array of strings, at most 100 of them; `total` and `hasMore` are kept as sent when they
 * have the right type.
 */
import { ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type { CompleteResult } from '../wire/protocol.js';

import { MAX_COMPLETION_VALUES } from './limits.js';

const METHOD = 'completion/complete';

/**
 * The result with `completion.values` capped at {@link MAX_COMPLETION_VALUES}; `trimmed` is how
 * many were dropped (each trim reported to `onError` as a `ProtocolError`). A `total` that is
 * not a non-negative integer, or a `hasMore` that is not a boolean, is reported and left out.
 * @throws ProtocolError (-32600) when `completion` is not an object or `values` not an array of
 *   strings.
 */
export function checkCompleteResult(
  result: JsonObject,
  onError: (error: Error) => void,
): { result: CompleteResult; trimmed: number } {
  const completion = result['completion'];
  if (!isObject(completion))
    throw new ProtocolError('result.completion must be an object', { method: METHOD, value: result });
  const values = completion['values'];
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
    throw new ProtocolError('result.completion.values must be an array of strings', { method: METHOD, value: result });
  const checked: JsonObject = { ...completion };
  let trimmed = 0;
  if (values.length > MAX_COMPLETION_VALUES) {
    trimmed = values.length - MAX_COMPLETION_VALUES;
    checked['values'] = values.slice(0, MAX_COMPLETION_VALUES);
    onError(
      new ProtocolError(`completion.values holds ${values.length} values; kept the first ${MAX_COMPLETION_VALUES}`, {
        method: METHOD,
        value: { count: values.length, total: completion['total'], hasMore: completion['hasMore'] },
      }),
    );
  }
  const total = completion['total'];
  if (total !== undefined && !(typeof total === 'number' && Number.isSafeInteger(total) && total >= 0)) {
    delete checked['total'];
    onError(
      new ProtocolError('completion.total must be a non-negative integer; left out', { method: METHOD, value: total }),
    );
  }
  const hasMore = completion['hasMore'];
  if (hasMore !== undefined && typeof hasMore !== 'boolean') {
    delete checked['hasMore'];
    onError(new ProtocolError('completion.hasMore must be a boolean; left out', { method: METHOD, value: hasMore }));
  }
  const same = trimmed === 0 && Object.keys(checked).length === Object.keys(completion).length;
  return { result: (same ? result : { ...result, completion: checked }) as CompleteResult, trimmed };
}
