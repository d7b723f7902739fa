import { ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from './messages.js';
import { repairToolSchemas } from './toolSchemas.js';

/**
 * Checks on results: only the fields mcp-live reads or hands on as typed, once per result.
 * A result that lacks them fails the call with `ProtocolError` (code -32600) carrying the
 * offending value; one malformed item in a list is reported and dropped instead.
 */

const ignore = (): void => {};

/**
 * How a result ended: `complete` (also when `resultType` is absent), `input_required`, or `task`
 * (a `CreateTaskResult` of the Tasks extension).
 */
export type ResultKind = 'complete' | 'input_required' | 'task';

/**
 * Reads `resultType` (spec: basic/index, Result). An unknown value is a protocol error, and so
 * is `task` unless the request declared the Tasks extension (`acceptsTask`; spec: ext-tasks, "a
 * client that receives CreateTaskResult in response to an unsupported request type MUST
 * interpret this as an invalid response").
 */
export function resultKind(method: string, result: JsonObject, acceptsTask = false): ResultKind {
  const type = result['resultType'];
  if (type === undefined || type === 'complete') return 'complete';
  if (type === 'input_required') return 'input_required';
  if (type === 'task' && acceptsTask) return 'task';
  throw new ProtocolError(`unknown resultType ${JSON.stringify(type)}`, { method, value: result });
}

/** Requires `result[key]` to be an array. */
export function requireArray(method: string, result: JsonObject, key: string): unknown[] {
  const value = result[key];
  if (!Array.isArray(value)) throw new ProtocolError(`result.${key} must be an array`, { method, value: result });
  return value;
}

/** Requires `result[key]` to be an object. */
export function requireObject(method: string, result: JsonObject, key: string): JsonObject {
  const value = result[key];
  if (!isObject(value)) throw new ProtocolError(`result.${key} must be an object`, { method, value: result });
  return value;
}

/**
 * `nextCursor` as the paginator needs it: a string (including `""`) continues the walk; absent
 * or `null` ends it. Any other type fails the call.
 */
export function readNextCursor(method: string, result: JsonObject): string | undefined {
  const cursor = result['nextCursor'];
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== 'string')
    throw new ProtocolError('result.nextCursor must be a string', { method, value: result });
  return cursor;
}

/**
 * Item checks per list method: the fields an item needs to be usable, and the repair of an
 * item that is usable once normalised (`undefined`: malformed after all).
 */
const itemChecks: Record<
  string,
  {
    key: string;
    check: (item: JsonObject) => boolean;
    repair?: (method: string, item: JsonObject, report: (error: Error) => void) => JsonObject | undefined;
  }
> = {
  'tools/list': {
    key: 'tools',
    check: (t) => typeof t['name'] === 'string' && isObject(t['inputSchema']),
    repair: repairToolSchemas,
  },
  'prompts/list': {
    key: 'prompts',
    check: (p) => typeof p['name'] === 'string' && (p['arguments'] === undefined || Array.isArray(p['arguments'])),
  },
  'resources/list': { key: 'resources', check: (r) => typeof r['uri'] === 'string' && typeof r['name'] === 'string' },
  'resources/templates/list': {
    key: 'resourceTemplates',
    check: (r) => typeof r['uriTemplate'] === 'string' && typeof r['name'] === 'string',
  },
};

/** The array key of a list method's result, e.g. `tools` for `tools/list`. */
export function listKey(method: string): string {
  const entry = itemChecks[method];
  if (entry === undefined) throw new Error(`not a list method: ${method}`);
  return entry.key;
}

/**
 * Validates a list page in place: the item array must exist, `nextCursor` must be a string or
 * absent, items with a slip that can be normalised are replaced by a repaired copy (reported),
 * and malformed items are removed and reported through `report` (one report per item). One
 * bad item never fails the page.
 */
export function checkListPage(method: string, result: JsonObject, report: (error: Error) => void): JsonObject {
  const entry = itemChecks[method];
  if (entry === undefined) throw new Error(`not a list method: ${method}`);
  const items = requireArray(method, result, entry.key);
  readNextCursor(method, result);
  const repair = entry.repair;
  const usable = (item: unknown, sink: (error: Error) => void): JsonObject | undefined => {
    if (!isObject(item) || !entry.check(item)) return undefined;
    return repair === undefined ? item : repair(method, item, sink);
  };
  // Most pages are clean: look first, copy only when an item must go or be replaced.
  let clean = true;
  for (const item of items) {
    if (usable(item, ignore) !== item) {
      clean = false;
      break;
    }
  }
  if (clean) return result;
  const kept: unknown[] = [];
  for (const item of items) {
    const checked = usable(item, report);
    if (checked === undefined)
      report(new ProtocolError(`malformed item in ${entry.key}; skipped`, { method, value: item }));
    else kept.push(checked);
  }
  result[entry.key] = kept;
  return result;
}

/** Checks the fields of a DiscoverResult the client reads. */
export function checkDiscover(method: string, result: JsonObject): JsonObject {
  const versions = requireArray(method, result, 'supportedVersions');
  if (!versions.every((v) => typeof v === 'string')) {
    throw new ProtocolError('result.supportedVersions must hold strings', { method, value: result });
  }
  requireObject(method, result, 'capabilities');
  return result;
}

/** Checks the fields of a ReadResourceResult the client reads. */
export function checkRead(method: string, result: JsonObject): JsonObject {
  requireArray(method, result, 'contents');
  return result;
}

/** The checks of the cacheable results that are not list pages (skills' as skillsClient.lazy.ts runs them). */
const resultChecks: Record<string, (method: string, result: JsonObject) => unknown> = {
  'server/discover': checkDiscover,
  'resources/read': checkRead,
  'skills/list': (method, result) => {
    requireArray(method, result, 'skills');
    return readNextCursor(method, result);
  },
  'skills/get': (method, result) => requireObject(method, result, 'skill'),
};

/**
 * Why a cacheable result of `method` read back from outside the process (a shared cache store)
 * fails the checks the client runs on what a server sends: the fields it reads, and for a list
 * page any item the page check would drop or repair (a page stored by mcp-live was checked
 * before it was stored, so it has none). `undefined` when it passes. Runs before the result is
 * frozen: a failing list page may be changed.
 */
export function recheckResult(method: string, result: JsonObject): string | undefined {
  try {
    if (itemChecks[method] !== undefined) {
      let problem: string | undefined;
      checkListPage(method, result, (error) => {
        problem ??= error.message;
      });
      return problem;
    }
    resultChecks[method]?.(method, result);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
