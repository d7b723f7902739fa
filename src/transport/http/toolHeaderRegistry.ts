/**
 * What a Streamable HTTP client remembers of `tools/list` for its `tools/call`s: the
 * `Mcp-Param-*` headers of each tool's `x-mcp-header` parameters (spec 2026-07-28: server/tools
 * "x-mcp-header"; basic/transports/streamable-http "Custom Headers from Tool Parameters") and
 * its idempotency hints; the schema checks are `mcpParamHeaders.ts`'s. Runtime-neutral.
 */
import { paramHeadersFor, screenToolHeaders, type ParamHeaderMap, type RejectedTool } from './mcpParamHeaders.js';

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
 * What a Streamable HTTP client remembers of `tools/list` for its `tools/call`s: each kept
 * tool's `ParamHeaderMap` (see `mcpParamHeaders.ts`) and whether it is annotated `readOnlyHint`
 * or `idempotentHint` (so a call may be sent again after a broken stream). No I/O.
 */
export class ToolHeaderRegistry {
  private readonly maps = new Map<string, ParamHeaderMap>();
  private readonly idempotent = new Map<string, boolean>();

  /**
   * Screens one `tools/list` page (see `screenToolHeaders`) and remembers the kept tools.
   * Returns the kept tools, in order, and the rejected ones with their reasons.
   */
  screen<T extends ListedTool>(tools: readonly T[]): ScreenedTools<T> {
    const screened = screenToolHeaders(tools);
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
    return map === undefined ? undefined : paramHeadersFor(map, args);
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
