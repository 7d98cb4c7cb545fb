import { runAgentLoop, type AgentLoopDeps } from '../turn/agent-loop.ts';
import type { ApprovalGate } from '../turn/execute-tool-call.ts';
import { EVENTS_GRACE_MS } from '../turn/settles-in-time.ts';
import { TurnHooks } from '../turn/turn-hooks.ts';
import type { TurnRuntimeDeps } from '../turn/turn-runtime-deps.ts';
import type { TurnState } from '../turn/turn-state.ts';
import type { ChildOutcome, ChildSpec } from './delegate-task.ts';
import { CHILD_TOOLS } from './tool-set.ts';

/** What a child agent shares with its parent turn: the model, workspace and limits, the hooks, the approval gate. */
export interface ChildAgentOptions {
  transport: AgentLoopDeps['transport'];
  systemPrompt: string;
  sandbox: AgentLoopDeps['sandbox'];
  /** The parent's: a child works in its parent session's workspace. */
  workspaceSession: AgentLoopDeps['workspaceSession'];
  maxIterations: number;
  retry?: AgentLoopDeps['retry'];
  /** The parent's chat tool set: a child never gets more (§5.10). */
  toolSet?: AgentLoopDeps['toolSet'];
  stopRequested: () => Promise<boolean>;
  /** The parent invocation's deadline (`TurnRuntimeDeps.signal`): the child's events are not waited for past its grace. */
  signal?: AbortSignal;
  hooks: TurnHooks['engine'];
  parentTrace: TurnHooks['trace'];
  /** The parent's operations: the child's become an `invoke_agent` under the `delegate_task` call. */
  parentSpans?: TurnHooks['spans'];
  logger: TurnRuntimeDeps['logger'];
  gate: ApprovalGate;
  /** The parent turn's state. */
  state: TurnState;
  child: ChildSpec;
}

/**
 * A delegated child (the `DelegateRunner` behind `delegate_task`, hook-semantics §1.14): the
 * same loop and model on its goal, in its own session, with the child tool set (within the
 * parent chat's tool set: never more than the parent), without
 * delegation or chat approvals (a dangerous command is refused, not asked about). Its hook
 * calls join the parent turn's trace, marked with the child's id.
 *
 * @example
 * const delegate: DelegateRunner = (child) => runChildAgent({ ...base, hooks: engine, parentTrace: hooks.trace, logger, gate, state, child });
 */
export async function runChildAgent(options: ChildAgentOptions): Promise<ChildOutcome> {
  const { child, state } = options;
  const turnId = `${state.turn_id}:${child.child_subagent_id}`;
  const hooks = new TurnHooks(
    options.hooks,
    options.logger,
    { session_id: child.child_session_id, turn_id: turnId },
    options.parentSpans,
  );
  const childState: TurnState = {
    ...state,
    turn_id: turnId,
    task_id: child.child_session_id,
    session_id: child.child_session_id,
    user_message: child.goal,
    injected_context: null,
    messages: [{ role: 'user', content: child.goal }],
    iteration: 0,
    api_call_count: 0,
    pending_calls: [],
    step_tools: [],
  };
  const spanFields = { subagent_id: child.child_subagent_id, child_session_id: child.child_session_id };
  // The child's observer events go out in the background (TurnHooks): handed over before this
  // returns or throws, so none is still in flight when the parent's invocation ends; as for the
  // parent's own, not waited for past the deadline's grace (those left are marked so).
  const outcome = await hooks.spans
    .within('invoke_agent', spanFields, async (set) => {
      const ended = await runAgentLoop(
        {
          transport: options.transport,
          hooks,
          tools: CHILD_TOOLS,
          allowedTools: new Set(CHILD_TOOLS.keys()),
          systemPrompt: options.systemPrompt,
          history: [],
          sandbox: options.sandbox,
          workspaceSession: options.workspaceSession,
          maxIterations: options.maxIterations,
          ...(options.retry ? { retry: options.retry } : {}),
          ...(options.toolSet ? { toolSet: options.toolSet } : {}),
          approvals: { canAsk: false, check: options.gate.check },
          stopRequested: options.stopRequested,
          subagentId: child.child_subagent_id,
        },
        childState,
      );
      set({ status: ended.kind });
      return ended;
    })
    .finally(async () => {
      const left = await hooks.flushBy(options.signal, EVENTS_GRACE_MS);
      if (left !== undefined)
        options.logger.warn(
          `turn ${turnId}: ${left} observer event(s) were still being handed over ${EVENTS_GRACE_MS} ms past the invocation's deadline; the subagent returns without waiting for them`,
        );
    });
  // The child's hook calls show in the parent turn's trace, marked as the child's.
  options.parentTrace.push(
    ...hooks.trace.map((record) => ({ ...record, turn_id: state.turn_id, hook: `${record.hook} [${child.child_subagent_id}]` })),
  );
  switch (outcome.kind) {
    case 'final':
      return { status: 'completed', summary: outcome.response };
    case 'interrupted':
      return { status: 'interrupted', summary: null };
    case 'exhausted':
      return { status: 'failed', summary: null };
    default:
      return { status: 'error', summary: outcome.kind === 'failed' ? outcome.error : null };
  }
}
