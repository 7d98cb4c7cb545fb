import type { TranscriptMessage } from '../../store/transcript-store.ts';
import type { DangerousMatch } from '../approvals/dangerous-commands.ts';
import { callModel, type RetryPolicy } from '../model/call-model.ts';
import { toolSetAllows, type ChatToolSet } from '../../config/chat-tool-sets.ts';
import type { ContentPart, ToolCall, WireMessage } from '../model/chat-wire.ts';
import { wireMessage } from '../attachments/user-content.ts';
import type { SandboxSession, ToolSandbox } from '../sandbox/tool-sandbox.ts';
import { ModelUnavailableError } from '../model/model-errors.ts';
import type { ModelTransport } from '../model/model-transport.ts';
import type { DelegateRunner } from '../tools/delegate-task.ts';
import type { Tool } from '../tools/tool.ts';
import type { ApprovalChoice } from '../../store/approval-store.ts';
import { executeToolCall, type ApprovalGate } from './execute-tool-call.ts';
import type { TurnHooks } from './turn-hooks.ts';
import type { TurnState } from './turn-state.ts';

export const DEFAULT_MAX_ITERATIONS = 25;

/**
 * A `/stop` read started as a step's tools start still answers the check after them when they
 * took at most this long; a longer step is read again. The read then rides along with the tools
 * instead of adding a round trip before the next model call, and a `/stop` sent in a short step's
 * last moments is seen at the next check, like one sent during a model call.
 */
export const STOP_READ_REUSE_MS = 100;

/** What the loop runs with (everything but the turn's own state). */
export interface AgentLoopDeps {
  transport: ModelTransport;
  hooks: TurnHooks;
  tools: ReadonlyMap<string, Tool>;
  /** A restricted tool set (§1.5): calls outside it are denied like a block, without pre_tool_call. */
  allowedTools?: ReadonlySet<string>;
  /** The chat's tool set (§5.10): only its tools are offered; a call outside it is refused after pre_tool_call. Absent = all. */
  toolSet?: ChatToolSet;
  /** Byte-stable across turns; never carries injected context (§1.9). */
  systemPrompt: string;
  /** The stored conversation before this turn. */
  history: readonly TranscriptMessage[];
  /** The current user message's images, as `image_url` parts (docs/attachments.md). */
  images?: readonly ContentPart[];
  /** Where the tools run, and whose workspace (hook-semantics §5.9). */
  sandbox: ToolSandbox;
  workspaceSession: SandboxSession;
  maxIterations: number;
  retry?: RetryPolicy;
  approvals?: ApprovalGate;
  /** Asked between iterations (/stop). */
  stopRequested?: () => Promise<boolean>;
  /** Default {@link STOP_READ_REUSE_MS}. */
  stopReadReuseMs?: number;
  delegate?: DelegateRunner;
  subagentId?: string | null;
  signal?: AbortSignal;
}

export type LoopOutcome =
  | { kind: 'final'; response: string }
  | { kind: 'interrupted' }
  | { kind: 'exhausted' }
  | { kind: 'failed'; error: string }
  | { kind: 'suspended'; match: DangerousMatch; command: string; call: ToolCall };

/**
 * The tool loop: model request, then each tool call of the answer, until the model answers
 * without tools, `/stop` is seen between iterations, `maxIterations` is reached, or a
 * dangerous command needs approval (the state then holds everything to go on later).
 * `agent:step` is scheduled after every iteration. `resume` carries an approval's answer
 * for `state.pending_calls[0]`.
 *
 * @example
 * const outcome = await runAgentLoop(deps, state);
 */
export async function runAgentLoop(
  deps: AgentLoopDeps,
  state: TurnState,
  resume?: { choice: ApprovalChoice },
): Promise<LoopOutcome> {
  let answer = resume;
  for (;;) {
    let stopRead: StopRead | undefined;
    if (state.iteration > 0) {
      if (state.pending_calls.length > 0 && deps.stopRequested) stopRead = startStopRead(deps.stopRequested);
      while (state.pending_calls.length > 0) {
        const call = state.pending_calls[0]!;
        const spans = deps.hooks.spans;
        const args = spans.captureContent ? { arguments: call.function.arguments } : {};
        // One `execute_tool` operation per call; its hooks (pre_tool_call, …) land under it.
        const outcome = await spans.within(
          'execute_tool',
          { tool_name: call.function.name, tool_call_id: call.id, ...args },
          async (set) => {
            const done = await executeToolCall(
              call,
              {
                tools: deps.tools,
                context: {
                  sandbox: deps.sandbox,
                  workspaceSession: deps.workspaceSession,
                  hooks: deps.hooks,
                  task_id: state.task_id,
                  session_id: state.session_id,
                  turn_id: state.turn_id,
                  subagent_id: deps.subagentId ?? null,
                  ...(deps.delegate ? { delegate: deps.delegate } : {}),
                  ...(deps.signal ? { signal: deps.signal } : {}),
                },
                api_request_id: `${state.turn_id}:api:${state.api_call_count}`,
                ...(deps.allowedTools ? { allowedTools: deps.allowedTools } : {}),
                ...(deps.toolSet ? { toolSet: deps.toolSet } : {}),
                ...(deps.approvals ? { approvals: deps.approvals } : {}),
              },
              answer,
            );
            set({
              outcome: done.kind === 'needs_approval' ? 'needs_approval' : done.blocked ? 'blocked' : 'done',
              ...(spans.captureContent && done.kind === 'done' ? { result: done.result } : {}),
            });
            return done;
          },
        );
        answer = undefined;
        if (outcome.kind === 'needs_approval') {
          // The persisted call carries the args it will run with (a pre_tool_call rewrite, §5.10).
          const pending = { ...call, function: { ...call.function, arguments: JSON.stringify(outcome.args) } };
          state.pending_calls[0] = pending;
          await stopRead?.stopped; // settled, not left in flight when the invocation ends
          return { kind: 'suspended', match: outcome.match, command: outcome.command, call: pending };
        }
        state.messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content: outcome.result });
        state.step_tools.push({ name: call.function.name, result: outcome.result });
        state.pending_calls.shift();
      }
      endStep(deps, state);
    }

    // Between iterations only: a turn that has not started has nothing to interrupt.
    if (
      state.iteration > 0 &&
      deps.stopRequested &&
      (await stopSeen(stopRead, deps.stopRequested, deps.stopReadReuseMs ?? STOP_READ_REUSE_MS))
    ) {
      return { kind: 'interrupted' };
    }
    if (state.iteration >= deps.maxIterations) return { kind: 'exhausted' };

    state.iteration += 1;
    state.api_call_count += 1;
    let reply;
    try {
      reply = await callModel({
        transport: deps.transport,
        hooks: deps.hooks,
        turn: {
          task_id: state.task_id,
          turn_id: state.turn_id,
          session_id: state.session_id,
          user_message: state.user_message,
          platform: state.platform,
          history: [...deps.history, ...state.messages],
        },
        apiCallCount: state.api_call_count,
        messages: apiMessages(deps, state),
        tools: offeredTools(deps),
        ...(deps.retry ? { retry: deps.retry } : {}),
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
    } catch (error) {
      if (error instanceof ModelUnavailableError) return { kind: 'failed', error: error.message };
      throw error;
    }
    const { message } = reply;
    state.messages.push({
      role: 'assistant',
      content: message.content,
      ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
    });
    if (message.tool_calls?.length) {
      state.pending_calls = [...message.tool_calls];
      state.step_tools = [];
      continue;
    }
    state.step_tools = [];
    endStep(deps, state);
    return { kind: 'final', response: message.content ?? '' };
  }
}

/** The specs the model is told about: the loop's tools that the chat's set allows (§5.10). */
function offeredTools(deps: AgentLoopDeps) {
  const set = deps.toolSet;
  return [...deps.tools.values()].filter((tool) => !set || toolSetAllows(set, tool.spec.function.name)).map((tool) => tool.spec);
}

/** §2.4 agent:step, fire-and-forget: this iteration's number and its tools by name. */
function endStep(deps: AgentLoopDeps, state: TurnState): void {
  if (deps.subagentId) return; // gateway events belong to the parent's run
  const tools = state.step_tools.map((tool) => ({ ...tool }));
  deps.hooks.observeLater('agent:step', {
    platform: state.platform,
    user_id: state.user_id,
    session_id: state.session_id,
    iteration: state.iteration,
    tool_names: tools.map((tool) => tool.name),
    tools,
  });
}

/**
 * The API copy of the conversation: the system prompt, the stored history, and this turn's
 * messages, attachments rendered (docs/attachments.md: the current message's images as
 * parts, earlier ones as their note), with pre_llm_call's context appended to the current
 * user message only, and only when its content is a string (§1.9: a parts list gets none).
 */
export function apiMessages(deps: Pick<AgentLoopDeps, 'systemPrompt' | 'history' | 'images'>, state: TurnState): WireMessage[] {
  const turn = state.messages.map((message, index) => {
    if (index !== 0 || message.role !== 'user') return wireMessage(message);
    const wire = wireMessage(message, deps.images);
    return state.injected_context && typeof wire.content === 'string'
      ? { ...wire, content: `${wire.content}\n\n${state.injected_context}` }
      : wire;
  });
  return [{ role: 'system', content: deps.systemPrompt }, ...deps.history.map((message) => wireMessage(message)), ...turn];
}

/** A `/stop` read in flight, and when it was started. */
interface StopRead {
  readonly startedAt: number;
  readonly stopped: Promise<boolean>;
}

function startStopRead(check: () => Promise<boolean>): StopRead {
  return { startedAt: performance.now(), stopped: safe(check) };
}

/** The read started with the step when it is at most `reuseMs` old; a fresh one otherwise. */
function stopSeen(early: StopRead | undefined, check: () => Promise<boolean>, reuseMs: number): Promise<boolean> {
  return early && performance.now() - early.startedAt <= reuseMs ? early.stopped : safe(check);
}

async function safe(check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch {
    return false;
  }
}
