/**
 * An MCP prompt as a LangChain chat prompt template: its arguments are the template's input
 * variables, and formatting it sends `prompts/get` through the host (the server renders the
 * prompt; spec: server/prompts) and gives the messages as LangChain messages. It pipes like any
 * template: `mcpPromptTemplate(host, 'example__greet').pipe(model)`.
 */
import { BaseChatPromptTemplate } from '@langchain/core/prompts';
import type { BaseMessage } from '@langchain/core/messages';
import type { McpHost } from '../../host/host.js';
import type { CallOptions } from '../../wire/callOptions.js';
import { HostRoutingError } from '../../host/catalog/errors.js';
import { toLangChainMessages } from './content.js';

/** A chat prompt template that renders an MCP prompt on its server (see the module comment). */
export class McpPromptTemplate extends BaseChatPromptTemplate<Record<string, string>> {
  /** The prompt's exposed name. */
  readonly prompt: string;
  private readonly host: McpHost;
  private readonly callOptions: CallOptions;

  /** @internal Made by {@link mcpPromptTemplate}. */
  constructor(
    host: McpHost,
    prompt: string,
    fields: { inputVariables: string[]; partialVariables?: Record<string, string> | undefined },
    callOptions: CallOptions,
  ) {
    super({ inputVariables: fields.inputVariables, partialVariables: fields.partialVariables ?? {} });
    this.host = host;
    this.prompt = prompt;
    this.callOptions = callOptions;
  }

  _getPromptType(): 'mcp-prompt' {
    return 'mcp-prompt';
  }

  /**
   * `prompts/get` with the values (partials first) as the prompt's arguments, as strings.
   * @throws HostRoutingError (-33051) as `host.getPrompt`, then what `prompts/get` fails with.
   */
  async formatMessages(values: Record<string, unknown>): Promise<BaseMessage[]> {
    const merged = await this.mergePartialAndUserVariables(values);
    const args: Record<string, string> = {};
    for (const [key, value] of Object.entries(merged))
      if (value !== undefined) args[key] = typeof value === 'string' ? value : JSON.stringify(value);
    return toLangChainMessages(await this.host.getPrompt(this.prompt, args, this.callOptions));
  }

  /** The template with some arguments fixed. */
  partial(values: Record<string, string>): Promise<McpPromptTemplate> {
    const template = new McpPromptTemplate(
      this.host,
      this.prompt,
      {
        inputVariables: this.inputVariables.filter((name) => !(name in values)),
        partialVariables: { ...(this.partialVariables as Record<string, string>), ...values },
      },
      this.callOptions,
    );
    return Promise.resolve(template);
  }
}

/**
 * The prompt `exposedName` of the host's catalog as a {@link McpPromptTemplate}; its input
 * variables are the prompt's arguments, in the server's order.
 * @throws HostRoutingError (-33051, `unknown-prompt`) when the catalog has no such prompt.
 */
export function mcpPromptTemplate(host: McpHost, exposedName: string, options: CallOptions = {}): McpPromptTemplate {
  const listed = host.prompts().find((p) => p.exposedName === exposedName);
  if (listed === undefined)
    throw new HostRoutingError(`no prompt ${JSON.stringify(exposedName)} in the catalog`, {
      reason: 'unknown-prompt',
      name: exposedName,
    });
  const inputVariables = (listed.prompt.arguments ?? []).map((argument) => argument.name);
  return new McpPromptTemplate(host, exposedName, { inputVariables }, options);
}
