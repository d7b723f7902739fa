/** The options of a model's tool call through a `ToolSession`. */
import type { CallToolOptions } from '../../tasks/options.js';
import type { ModelArgumentsFrom } from '../models/modelTools.js';

/** Options of a model's call through a `ToolSession`: `host.callTool`'s, less manual tasks. */
export type ModelCallOptions = Omit<CallToolOptions, 'task'> & {
  task?: 'auto' | 'off' | undefined;
  modelArguments?: ModelArgumentsFrom | 'asIs' | undefined;
  /** The model's id of this call, for the `approve` hook (`HostCallToolOptions.toolCallId`). */
  toolCallId?: string | undefined;
};
