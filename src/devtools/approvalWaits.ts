/**
 * The tool calls waiting for an approval hook the recorder wraps (`recorder.approve`), and,
 * when the app allows it, the page's answer to one: bound to that approval's id and the hash of
 * its arguments exactly as they will be sent, raced against the hook (the first answer wins, the
 * other is ignored and the hook's signal aborts).
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { ApprovalVerdict, ApproveHook, ToolCallApproval } from '../host/policy/approval.js';
import { redact } from '../observability/debug.js';
import type { WallClock } from '../util/clock.js';
import type { DevtoolsApproval } from './snapshot.js';

/** Options of `recorder.approve(hook, options)`. */
export interface DevtoolsApproveOptions {
  /**
   * Lets the page answer a waiting call (served with `actions: true`): the page's answer and
   * the hook race, the first wins. Without a hook, the call waits for the page (as long as the
   * host's `approvalTimeoutMs`). @default false
   */
  fromPage?: boolean | undefined;
}

/** The page's answer to one approval. */
export type PageVerdict = 'allow' | 'deny';

interface Waiting {
  readonly id: number;
  readonly call: ToolCallApproval;
  readonly since: number;
  /** Set while the page may answer (fromPage, not answered yet). */
  answer: ((verdict: ApprovalVerdict) => void) | undefined;
}

/** See the file's opening comment. */
export class ApprovalWaits {
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;

  constructor(
    private readonly wallClock: WallClock,
    /** Told after each approval came or went. */
    private readonly changed: () => void,
  ) {}

  /** The hook `recorder.approve` returns (see `DevtoolsRecorder.approve`). */
  wrap(hook: ApproveHook | undefined, options: DevtoolsApproveOptions): ApproveHook {
    const fromPage = options.fromPage === true;
    return async (call, context) => {
      const id = ++this.lastId;
      const record: Waiting = { id, call, since: this.wallClock.now(), answer: undefined };
      if (!fromPage) {
        this.waiting.set(id, record);
        this.changed();
        try {
          return hook === undefined ? 'allow' : await hook(call, context);
        } finally {
          this.forget(id);
        }
      }
      const page = new Promise<ApprovalVerdict>((resolve) => (record.answer = resolve));
      // The hook's own signal, aborted too when the page answers first (stop asking then).
      const controller = new AbortController();
      const onAbort = (): void => controller.abort(context.signal.reason);
      context.signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, record);
      this.changed();
      try {
        if (hook === undefined) return await page;
        const asked = Promise.resolve().then(() => hook(call, { signal: controller.signal }));
        return await Promise.race([page, asked]);
      } finally {
        record.answer = undefined;
        context.signal.removeEventListener('abort', onAbort);
        controller.abort(new Error('the approval was answered'));
        this.forget(id);
      }
    };
  }

  /**
   * Answers approval `id` from the page with `verdict`: `allow` gives the call's own binding
   * (so it applies to exactly the arguments hashed), `deny` a denial by the user.
   * @throws InvalidArgumentError (-32602): `data.name` `approval` when no approval by that id
   *   waits (answered already) or it is not answerable from the page; `argumentsHash` when the
   *   hash is not that of its arguments; `verdict` for anything but `allow` or `deny`.
   */
  answer(id: number, argumentsHash: string, verdict: PageVerdict): void {
    const record = this.waiting.get(id);
    if (record === undefined) throw new InvalidArgumentError('approval', id, 'no approval waits by that id');
    if (record.answer === undefined)
      throw new InvalidArgumentError('approval', id, 'this approval cannot be answered from the page');
    if (argumentsHash !== record.call.binding.argumentsHash)
      throw new InvalidArgumentError('argumentsHash', argumentsHash, 'not the hash of the arguments of this approval');
    if (verdict !== 'allow' && verdict !== 'deny')
      throw new InvalidArgumentError('verdict', verdict, "expected 'allow' or 'deny'");
    const answer = record.answer;
    record.answer = undefined;
    answer(
      verdict === 'allow' ? { allow: record.call.binding } : { deny: 'denied from the devtools page', by: 'user' },
    );
  }

  /** The calls waiting, oldest first, their arguments redacted. */
  list(): DevtoolsApproval[] {
    return [...this.waiting.values()].map(({ id, call, since, answer }) => ({
      id,
      server: call.server,
      exposedName: call.exposedName,
      name: call.name,
      arguments: redact(call.arguments),
      since,
      argumentsHash: call.binding.argumentsHash,
      answerable: answer !== undefined,
    }));
  }

  private forget(id: number): void {
    this.waiting.delete(id);
    this.changed();
  }
}
