/**
 * What a Streamable HTTP client remembers of `tools/list` for its `tools/call`s: the
 * `Mcp-Param-*` headers of each tool's `x-mcp-header` parameters (spec 2026-07-28: server/tools
 * "x-mcp-header"; basic/transports/streamable-http "Custom Headers from Tool Parameters") and
 * its idempotency hints. The schema checks (`mcpParamHeaders.ts`) load when the first listed
 * tool declares such a parameter. Runtime-neutral.
 */
import { onDemand } from '../../errors/moduleLoad.js';
import type { ParamHeaderMap, RejectedTool } from './mcpParamHeaders.js';

export type { RejectedTool } from './mcpParamHeaders.js';

/** The `x-mcp-header` checks and encoding, loaded with the first tool that declares one. */
const loadParamHeaders = onDemand('mcp-param-headers', () => import('./mcpParamHeaders.js'));

/** What {@link ToolHeaderRegistry} needs of a listed tool. */
export interface ListedTool {
  readonly name?: unknown;
  readonly inputSchema?: unknown;
  readonly annotations?: { readonly readOnlyHint?: unknown; readonly idempotentHint?: unknown } | undefined;
}

/** What {@link ToolHeaderRegistry.screen} returns: the kept tools, in order, and the rejected ones. */
export interface ScreenedTools<T> {
  tools: T[];
  rejected: RejectedTool[];
}

/**
 * Whether `schema` may hold an `x-mcp-header` annotation: an object anywhere in it with that
 * key. False for nearly every tool; a schema that cannot be serialised counts as true.
 */
function mayDeclareHeaders(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  try {
    // A key is the only place a JSON text has a string followed by a colon.
    return JSON.stringify(schema).includes('"x-mcp-header":');
  } catch {
    return true;
  }
}

/**
 * What a Streamable HTTP client remembers of `tools/list` for its `tools/call`s: each kept
 * tool's `ParamHeaderMap` (see `mcpParamHeaders.ts`) and whether it is annotated `readOnlyHint`
 * or `idempotentHint` (so a call may be sent again after a broken stream). No I/O.
 */
export class ToolHeaderRegistry {
  private readonly maps = new Map<string, ParamHeaderMap>();
  private readonly idempotent = new Map<string, boolean>();

  /**
   * Screens one `tools/list` page (see `screenToolHeaders`) and remembers the kept tools.
   * Resolves with the kept tools, in order, and the rejected ones with their reasons. A page
   * whose tools declare `x-mcp-header` parameters loads the checks first (the first time).
   * @throws ModuleLoadError (-33042) when they cannot be loaded.
   */
  async screen<T extends ListedTool>(tools: readonly T[]): Promise<ScreenedTools<T>> {
    const checks =
      loadParamHeaders.value ??
      (tools.some((tool) => mayDeclareHeaders(tool.inputSchema)) ? await loadParamHeaders() : undefined);
    // Without annotations every tool is kept, and none has a map.
    const screened = checks?.screenToolHeaders(tools) ?? { tools: [...tools], maps: undefined, rejected: [] };
    for (const tool of screened.tools) {
      if (typeof tool.name !== 'string') continue;
      const map = screened.maps?.get(tool.name);
      if (map === undefined) this.maps.delete(tool.name);
      else this.maps.set(tool.name, map);
      const hints = tool.annotations;
      this.idempotent.set(tool.name, hints?.readOnlyHint === true || hints?.idempotentHint === true);
    }
    for (const { tool } of screened.rejected) {
      this.maps.delete(tool);
      this.idempotent.delete(tool);
    }
    return { tools: screened.tools, rejected: screened.rejected };
  }

  /**
   * The `Mcp-Param-*` headers of a `tools/call` of `name` with `args`; `undefined` when the tool
   * has no annotated parameter or was never listed.
   */
  headersFor(name: string, args: unknown): Record<string, string> | undefined {
    const map = this.maps.get(name);
    // A map exists only once the checks are loaded (screen() made it).
    const checks = loadParamHeaders.value;
    return map === undefined || checks === undefined ? undefined : checks.paramHeadersFor(map, args);
  }

  /** True when the listed tool says `readOnlyHint` or `idempotentHint`; `undefined` if never listed. */
  isIdempotent(name: string): boolean | undefined {
    return this.idempotent.get(name);
  }

  /** Forgets every tool (after `notifications/tools/list_changed`, before a refresh). */
  clear(): void {
    this.maps.clear();
    this.idempotent.clear();
  }
}
