/**
 * Approval presets: ready `approve` hooks that decide from a tool's behaviour hints, and ask
 * (another hook: the user) only where the preset says so. They act on `call.hints`, which
 * reads a server's annotations only when the configuration marks it `trusted`: from any other
 * server every tool counts as destructive and open-world (the spec's defaults), so it is asked
 * about. Annotations are hints, never permissions.
 */
import type { Tool, ToolAnnotations } from '../../wire/protocol.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import type { ApproveHook, TrustedHints } from './approval.js';

/**
 * - `ask-all`: every call is asked about;
 * - `allow-read-only`: read-only tools run, the others are asked about;
 * - `ask-destructive`: read-only and non-destructive tools run, destructive ones are asked about;
 * - `deny-destructive`: destructive tools are refused without asking, the others run.
 */
export type ApprovalPreset = 'ask-all' | 'allow-read-only' | 'ask-destructive' | 'deny-destructive';

const PRESETS: readonly ApprovalPreset[] = ['ask-all', 'allow-read-only', 'ask-destructive', 'deny-destructive'];

/**
 * An `approve` hook for `preset`. Where the preset asks, `ask` decides (an
 * `approveWithElicitation(...)` hook, a UI prompt); without `ask`, such a call is denied.
 * @throws InvalidArgumentError (-32602) for an unknown preset or an `ask` that is not a function.
 */
export function approvalPreset(preset: ApprovalPreset, ask?: ApproveHook): ApproveHook {
  if (!PRESETS.includes(preset))
    throw new InvalidArgumentError('preset', preset, `expected one of ${PRESETS.map((p) => `"${p}"`).join(', ')}`);
  if (ask !== undefined && typeof ask !== 'function') throw new InvalidArgumentError('ask', ask, 'expected a function');
  return (call, context) => {
    const { readOnlyHint, destructiveHint } = call.hints;
    const destructive = !readOnlyHint && destructiveHint;
    const action =
      preset === 'ask-all'
        ? 'ask'
        : preset === 'allow-read-only'
          ? readOnlyHint
            ? 'allow'
            : 'ask'
          : preset === 'ask-destructive'
            ? destructive
              ? 'ask'
              : 'allow'
            : destructive
              ? 'deny'
              : 'allow';
    if (action === 'allow') return 'allow';
    if (action === 'deny') return { deny: `${preset}: the tool may be destructive`, by: 'preset' };
    return ask === undefined ? { deny: `${preset}: nobody to ask`, by: 'preset' } : ask(call, context);
  };
}

/** The hint keys {@link trustedHints} decides. */
const HINT_DEFAULTS: TrustedHints = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

/**
 * The hints a policy may act on (see `TrustedHints`): `configured` (the override's annotations,
 * written by the host) first, then `tool.annotations` when `trusted`, then the spec's defaults.
 */
export function trustedHints(
  tool: Tool,
  trusted: boolean,
  configured: Readonly<ToolAnnotations> | undefined,
): TrustedHints {
  const listed = trusted ? tool.annotations : undefined;
  const pick = (key: keyof TrustedHints): boolean => {
    const own = configured?.[key];
    if (typeof own === 'boolean') return own;
    const claimed = listed?.[key];
    return typeof claimed === 'boolean' ? claimed : HINT_DEFAULTS[key];
  };
  return Object.freeze({
    readOnlyHint: pick('readOnlyHint'),
    destructiveHint: pick('destructiveHint'),
    idempotentHint: pick('idempotentHint'),
    openWorldHint: pick('openWorldHint'),
  });
}
