/** The options of the host's calls (`McpHost` and its views). */
import type { CallOptions } from '../../wire/callOptions.js';
import type { CallToolOptions } from '../../tasks/options.js';
import type { ModelArgumentsFrom } from '../models/modelTools.js';

/** Options of the host's calls: the client's {@link CallOptions}, and which server to ask. */
export interface HostCallOptions extends CallOptions {
  /**
   * `readResource` and `complete`: send to this server instead of routing by URI (for a URI
   * that more than one server could serve).
   */
  server?: string | undefined;
}

/** Options of `host.callTool`: the client's {@link CallToolOptions}, and how the model saw the tool. */
export interface HostCallToolOptions extends CallToolOptions {
  /**
   * How the arguments are mapped back before the call (`restoreModelArguments`):
   * `'asIs'` sends them untouched. @default { api: 'openAiChat', strict: 'auto' } (drops the
   * `null`s strict mode stands in for optional properties with)
   */
  modelArguments?: ModelArgumentsFrom | 'asIs' | undefined;
  /**
   * The model's id of this call (the AI SDK's `toolCallId`, LangChain's `tool_call.id`), handed
   * to the `approve` hook as `call.toolCallId`, so an approval given in a framework's own flow can
   * be matched to the call it was given for. Never sent to the server. @default undefined
   */
  toolCallId?: string | undefined;
}
