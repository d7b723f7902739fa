/**
 * The host's calls routed to one server: by a tool's or prompt's exposed name (or
 * `{ server, name }`), by a resource's URI (listed, or matched by a template), by a completion
 * ref; a tool call mapped back to the server's schema and its overrides applied (approved at the
 * end of the host's link: policy/toolGate.ts).
 */
import { checkAppUri } from '../../apps/uiUri.js';
import { type AppResource, type AppResourceOptions } from '../../apps/appResourceCheck.js';
import { isModelVisible } from '../../apps/toolUi.js';
import { readAppResource as readClientAppResource } from '../../client/appResources.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import type { CallToolOptions } from '../../tasks/options.js';
import type { ToolTask } from '../../tasks/toolTask.js';
import type { CallOptions } from '../../wire/callOptions.js';
import type { JsonObject } from '../../wire/messages.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  PromptReference,
  ReadResourceResult,
  ResourceTemplateReference,
} from '../../wire/protocol.js';
import { routeAppResource } from '../catalog/appRouting.js';
import type { HostCallOptions, HostCallToolOptions } from './callOptions.js';
import { HostRoutingError } from '../catalog/errors.js';
import type { HostCore } from './hostCore.js';
import { restoreModelArguments, type ModelArgumentsFrom } from '../models/modelTools.js';
import { overrideOf, wireArguments } from '../catalog/overrides.js';
import { GATE_MEMO, type GateMemo } from '../policy/toolGate.js';
import { routePrompt, routeResource, routeTemplate, routeTool, type ServerItemRef } from '../catalog/routing.js';
import { itemsOf, onServer } from './serverCalls.js';
import { templateMatcher } from '../catalog/templateRoute.js';

const DEFAULT_MODEL_ARGUMENTS: ModelArgumentsFrom = { api: 'openAiChat', strict: 'auto' };

/** `host.callTool`: see its documentation. */
export async function callTool(
  core: HostCore,
  tool: string | ServerItemRef,
  args: JsonObject,
  options: HostCallToolOptions,
): Promise<CallToolResult | ToolTask> {
  try {
    return await routedToolCall(core, tool, args, options);
  } catch (error) {
    throw heardRefusal(core, 'tools/call', tool, error);
  }
}

/**
 * `error` as it is; a `HostRoutingError` (refused before any server: clients never throw one)
 * is first heard as a `refused` event.
 */
function heardRefusal(
  core: HostCore,
  method: 'tools/call' | 'prompts/get' | 'resources/read',
  target: string | ServerItemRef,
  error: unknown,
): unknown {
  if (error instanceof HostRoutingError)
    core.events.emit({
      type: 'refused',
      method,
      target: typeof target === 'string' ? target : `${String(target?.server)}:${String(target?.name)}`,
      error,
    });
  return error;
}

async function routedToolCall(
  core: HostCore,
  tool: string | ServerItemRef,
  args: JsonObject,
  options: HostCallToolOptions,
): Promise<CallToolResult | ToolTask> {
  if (typeof tool !== 'string') await itemsOf(core, tool.server, 'tools/call', options);
  const target = routeTool(core.catalog, tool);
  if (typeof tool === 'string' && !isModelVisible(target.tool))
    throw new HostRoutingError(
      `tool ${JSON.stringify(tool)} is for apps only (visibility without "model"): call it as { server, name }`,
      { reason: 'unknown-tool', name: tool },
    );
  const { modelArguments = DEFAULT_MODEL_ARGUMENTS, ...callOptions } = options;
  const restored = modelArguments === 'asIs' ? args : restoreModelArguments(target, args, modelArguments);
  const entry = core.slots.get(target.server)?.entry;
  const sent = wireArguments(overrideOf(entry?.overrides, target.tool.name), restored);
  // Approved at the end of the host's link (toolGate.ts), once, with the arguments as sent.
  const memo: GateMemo = {};
  return onServer(core, target.server, 'tools/call', { ...callOptions, [GATE_MEMO]: memo }, (client, call) =>
    client.callTool(target.tool.name, sent, call as CallToolOptions & { task: 'manual' }),
  );
}

/** `host.getPrompt`: see its documentation. */
export async function getPrompt(
  core: HostCore,
  prompt: string | ServerItemRef,
  args: Record<string, string>,
  options: CallOptions,
): Promise<GetPromptResult> {
  try {
    if (typeof prompt !== 'string') await itemsOf(core, prompt.server, 'prompts/get', options);
    const target = routePrompt(core.catalog, prompt);
    return await onServer(core, target.server, 'prompts/get', options, (client, call) =>
      client.getPrompt(target.prompt.name, args, call),
    );
  } catch (error) {
    throw heardRefusal(core, 'prompts/get', prompt, error);
  }
}

/** `host.readResource`: see its documentation. */
export async function readResource(core: HostCore, uri: string, options: HostCallOptions): Promise<ReadResourceResult> {
  const { server, ...call } = options;
  if (typeof uri !== 'string' || uri === '')
    throw new InvalidArgumentError('uri', uri, 'expected a non-empty URI string (RFC 3986)');
  try {
    const target =
      server ??
      routeResource(
        core.catalog,
        uri,
        templateMatcher((error) => core.report(error, undefined)),
      );
    return await onServer(core, target, 'resources/read', call, (client, own) => client.readResource(uri, own));
  } catch (error) {
    throw heardRefusal(core, 'resources/read', uri, error);
  }
}

/** `host.readAppResource`: see its documentation. */
export async function readAppResource(
  core: HostCore,
  uri: string,
  options: HostCallOptions & AppResourceOptions,
): Promise<AppResource> {
  checkAppUri(uri);
  const { server, listed, ...call } = options;
  const target = server ?? routeAppResource(core.catalog, uri);
  const entry = listed ?? core.catalog.resourcesByUri.get(uri)?.find((r) => r.server === target)?.resource;
  return onServer(core, target, 'resources/read', call, (client, own) =>
    readClientAppResource(client, uri, { ...own, listed: entry }),
  );
}

/** `host.offersApps`: see its documentation. */
export function offersApps(core: HostCore, server: string): boolean {
  const client = core.slots.get(server)?.client;
  if (client === undefined || core.slots.get(server)?.status().state !== 'open') return false;
  return client.offersApps(core.catalog.tools.filter((t) => t.server === server).map((t) => t.tool));
}

/** `host.complete`: see its documentation. */
export async function complete(
  core: HostCore,
  ref: PromptReference | ResourceTemplateReference,
  argument: { name: string; value: string },
  context: { arguments?: Record<string, string> } | undefined,
  options: HostCallOptions,
): Promise<CompleteResult> {
  const { server, ...call } = options;
  const method = 'completion/complete';
  if (server !== undefined)
    return onServer(core, server, method, call, (client, own) => client.complete(ref, argument, context, own));
  if (ref?.type === 'ref/prompt') {
    const target = routePrompt(core.catalog, ref.name);
    return onServer(core, target.server, method, call, (client, own) =>
      client.complete({ ...ref, name: target.prompt.name }, argument, context, own),
    );
  }
  if (ref?.type === 'ref/resource') {
    const target = routeTemplate(core.catalog, ref.uri);
    return onServer(core, target, method, call, (client, own) => client.complete(ref, argument, context, own));
  }
  throw new InvalidArgumentError('ref', ref, 'expected { type: "ref/prompt", name } or { type: "ref/resource", uri }');
}
