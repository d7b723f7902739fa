/** Pins the public surface of McpHost (checked by tsc; trivially true at run time). */
import { describe, expectTypeOf, it } from 'vitest';
import type { CallToolResult, ReadResourceResult, ToolTask } from '../../src/index.js';
import type {
  Catalog,
  HostEvent,
  HostPrompt,
  HostResource,
  HostResourceTemplate,
  HostServerState,
  HostServerStatus,
  HostTool,
  McpHost,
} from '../../src/host.js';

/** Never called: tsc checks the types of what it would do. */
function catalogPins(host: McpHost): void {
  expectTypeOf(host.tools()).toEqualTypeOf<readonly HostTool[]>();
  expectTypeOf(host.prompts()).toEqualTypeOf<readonly HostPrompt[]>();
  expectTypeOf(host.resources()).toEqualTypeOf<readonly HostResource[]>();
  expectTypeOf(host.resourceTemplates()).toEqualTypeOf<readonly HostResourceTemplate[]>();
  expectTypeOf(host.catalog).toEqualTypeOf<Catalog>();
  expectTypeOf(host.servers).toEqualTypeOf<readonly HostServerStatus[]>();
  expectTypeOf<HostServerStatus['state']>().toEqualTypeOf<HostServerState>();
  expectTypeOf<HostServerState>().toEqualTypeOf<
    'new' | 'connecting' | 'open' | 'reconnecting' | 'failed' | 'closed' | 'disabled'
  >();
  expectTypeOf<HostEvent['type']>().toEqualTypeOf<
    'state' | 'catalog' | 'collision' | 'client' | 'skills' | 'polling' | 'slashCommands' | 'refused'
  >();
  expectTypeOf<typeof host.on>().toEqualTypeOf<(listener: (event: HostEvent) => void) => () => void>();
  expectTypeOf<HostTool>().toEqualTypeOf<{
    readonly server: string;
    readonly availability: 'available' | 'unavailable';
    readonly exposedName: string;
    readonly tool: import('../../src/index.js').Tool;
    readonly modelTool?: import('../../src/index.js').Tool | undefined;
  }>();
}

function callPins(host: McpHost): void {
  expectTypeOf(host.callTool('a__b', {})).toEqualTypeOf<Promise<CallToolResult>>();
  expectTypeOf(host.callTool({ server: 'a', name: 'b' })).toEqualTypeOf<Promise<CallToolResult>>();
  expectTypeOf(host.callTool('a__b', {}, { task: 'manual' })).toEqualTypeOf<Promise<CallToolResult | ToolTask>>();
  expectTypeOf(host.readResource('x://y', { server: 'a' })).toEqualTypeOf<Promise<ReadResourceResult>>();
  // The messages follow the API asked for; without one there are none.
  void host.runSlashCommand('/x', { api: 'anthropic' }).then((run) => {
    expectTypeOf(run.messages).toEqualTypeOf<import('../../src/host.js').AnthropicMessage[]>();
  });
  void host.runSlashCommand('/x').then((run) => expectTypeOf(run.messages).toEqualTypeOf<undefined>());
  void host.resolveMentions('@a:x://y', { api: 'gemini' }).then((resolved) => {
    expectTypeOf(resolved.messages).toEqualTypeOf<import('../../src/host.js').GeminiContent[]>();
  });
}

describe('McpHost public types', () => {
  it('are pinned (by tsc)', () => {
    expectTypeOf(catalogPins).toBeFunction();
    expectTypeOf(callPins).toBeFunction();
  });
});
