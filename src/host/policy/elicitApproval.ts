/**
 * Asking the user to approve a tool call through a form-mode elicitation handler (the same
 * handler type as `handlers.elicitation.form`), so one UI answers servers and the host alike.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import type { FormElicitationHandler, FormElicitParams } from '../../inputRequired/handlers.js';
import type { ApproveHook, ToolCallApproval } from './approval.js';
import { headOf } from '../../util/text.js';

/** Options of {@link approveWithElicitation}. */
export interface ElicitApprovalOptions {
  /** The question shown. @default `Allow <server> to run <name> with <arguments as JSON>?` (arguments cut at 500 characters) */
  message?: ((call: ToolCallApproval) => string) | undefined;
}

/** The longest text of the arguments in the default question. */
const MAX_ARGUMENTS_TEXT = 500;

/**
 * An `approve` hook that asks through `form`: a form-mode elicitation with one required boolean,
 * `approve`. `accept` with `approve: true` allows; `accept` with `false` or `decline` is the user
 * declining; `cancel` (dismissed) is a denial too. The handler's context has `key: "approval"`,
 * `requestMethod: "tools/call"` and the approval's signal (aborted on timeout or cancel).
 * @throws InvalidArgumentError (-32602) when `form` is not a function.
 */
export function approveWithElicitation(form: FormElicitationHandler, options: ElicitApprovalOptions = {}): ApproveHook {
  if (typeof form !== 'function') throw new InvalidArgumentError('form', form, 'expected a form elicitation handler');
  return async (call, context) => {
    const params: FormElicitParams = {
      mode: 'form',
      message: options.message?.(call) ?? defaultMessage(call),
      requestedSchema: {
        type: 'object',
        properties: {
          approve: {
            type: 'boolean',
            title: `Run ${call.name}`,
            description: `Lets ${call.server} run ${call.name} once, with these arguments`,
            default: false,
          },
        },
        required: ['approve'],
      },
    };
    const answer = await form(params, { signal: context.signal, key: 'approval', requestMethod: 'tools/call' });
    if (answer.action === 'accept' && answer.content?.['approve'] === true) return 'allow';
    if (answer.action === 'cancel') return { deny: 'the user dismissed the request', by: 'user' };
    return { deny: '', by: 'user' };
  };
}

function defaultMessage(call: ToolCallApproval): string {
  let args = JSON.stringify(call.arguments);
  if (args.length > MAX_ARGUMENTS_TEXT) args = `${headOf(args, MAX_ARGUMENTS_TEXT)}…`;
  return `Allow ${call.server} to run ${call.name} with ${args}?`;
}
