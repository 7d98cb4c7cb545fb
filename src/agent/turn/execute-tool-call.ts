import { performance } from 'node:perf_hooks';
import { isPlainObject } from '../../hooks/python-truthiness.ts';
import { renderWireJson } from '../../hooks/wire-json.ts';
import type { ApprovalChoice } from '../../store/approval-store.ts';
import type { DangerousMatch } from '../approvals/dangerous-commands.ts';
import type { ToolCall } from '../model/chat-wire.ts';
import type { Tool, ToolContext } from '../tools/tool.ts';
import { hookAnswer } from '../../hooks/catalogue.ts';
import { decidePreToolCall } from './pre-tool-call-decision.ts';
import { redactSecrets } from '../../secrets/redact-secrets.ts';
import { toolCallStatusOf, type ToolCallStatus } from './tool-call-status.ts';
import type { ChatToolSet } from '../../config/chat-tool-sets.ts';
import { refuseOutsideToolSet } from './tool-set-refusal.ts';
import { errorText } from '../../errors/error-text.ts';

/** Decides whether a terminal command must wait for the user's yes. */
export interface ApprovalGate {
  /**
   * The match that needs an answer, or undefined when the command may run (harmless or
   * granted). `refused`: a PermissionRequest hook denied it; the call is answered with it.
   */
  check(command: string, sessionId: string): Promise<(DangerousMatch & { refused?: string }) | undefined>;
  /** Children cannot ask in the chat: a match is refused instead of suspended. */
  readonly canAsk: boolean;
}

export interface ToolCallSite {
  tools: ReadonlyMap<string, Tool>;
  /**
   * A restricted tool set (§1.5, e.g. a subagent's): a call outside it is denied with
   * `Tool '<name>' denied: not in this thread's tool whitelist`, without invoking
   * `pre_tool_call`, and treated exactly like a block.
   */
  allowedTools?: ReadonlySet<string>;
  /**
   * The chat's tool set (§5.10, config.yaml `tools:`): a call outside it does not run and its
   * result is an error naming the set, but `pre_tool_call` still fires for it first.
   */
  toolSet?: ChatToolSet;
  context: ToolContext;
  api_request_id: string;
  approvals?: ApprovalGate;
}

export type ToolCallOutcome =
  /** `blocked`: a hook (or the chat's tool set) refused the call, and `result` says so; the tool did not run. */
  | { kind: 'done'; result: string; blocked?: true }
  /** `args`: what the call runs with once approved (a `pre_tool_call` rewrite included). */
  | { kind: 'needs_approval'; match: DangerousMatch; command: string; args: Record<string, unknown> };

const DENIED: Record<'deny' | 'timeout', string> = {
  deny: 'The user denied this command.',
  timeout: 'The approval request timed out; the command was not run.',
};

/**
 * One tool call at its call site (§1.5–§1.7): `pre_tool_call` (a block becomes the wire-JSON
 * `{"error": msg}` result and `post_tool_call` fires with status `blocked`), the approval
 * gate for dangerous terminal commands, the tool, `post_tool_call`, `transform_tool_result`.
 * `resumed` is set when the call comes back from an approval: `pre_tool_call` already fired
 * for it, so it does not fire again, and the choice decides whether it runs.
 *
 * @example
 * const outcome = await executeToolCall(call, site);
 * if (outcome.kind === 'done') messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.result });
 */
export async function executeToolCall(
  call: ToolCall,
  site: ToolCallSite,
  resumed?: { choice: ApprovalChoice },
): Promise<ToolCallOutcome> {
  const { context } = site;
  const { hooks } = context;
  const toolName = call.function.name;
  let args = parseArgs(call.function.arguments);
  const ids = {
    task_id: context.task_id,
    session_id: context.session_id,
    tool_call_id: call.id,
    turn_id: context.turn_id,
    api_request_id: site.api_request_id,
  };

  if (!resumed) {
    const denied =
      site.allowedTools && !site.allowedTools.has(toolName)
        ? `Tool '${toolName}' denied: not in this thread's tool whitelist`
        : undefined;
    // §5.10: a rewrite (pre-tool-call-decision.ts) gives the args the approval check and the tool use.
    const decision =
      denied !== undefined
        ? { kind: 'block' as const, message: denied }
        : await decidePreToolCall(hooks, site.tools.get(toolName), { tool_name: toolName, args, ...ids, middleware_trace: [] });
    // §5.10: a tool outside the chat's set is refused after pre_tool_call has fired for it.
    const refused = decision.kind === 'block' ? undefined : refuseOutsideToolSet(site.toolSet, toolName, hooks);
    const message = decision.kind === 'block' ? decision.message : refused;
    if (message !== undefined) {
      const result = redactSecrets(renderWireJson({ error: message }));
      await firePost(site, toolName, args, result, ids, 0, {
        status: 'blocked',
        error_type: refused ? 'tool_set' : 'plugin_block',
        error_message: message,
      });
      return { kind: 'done', result, blocked: true };
    }
    if (decision.kind === 'run' && decision.rewritten) args = decision.args;
  }

  const tool = site.tools.get(toolName);
  const started = performance.now();
  let result: string;
  if (resumed && (resumed.choice === 'deny' || resumed.choice === 'timeout')) {
    result = renderWireJson({ error: DENIED[resumed.choice] });
  } else if (!tool) {
    result = renderWireJson({ error: `Unknown tool: ${toolName}` });
  } else {
    if (!resumed && toolName === 'terminal' && site.approvals && typeof args.command === 'string') {
      const match = await site.approvals.check(args.command, context.session_id);
      if (match?.refused !== undefined) return finish(site, toolName, args, renderWireJson({ error: match.refused }), ids, 0);
      if (match && site.approvals.canAsk) return { kind: 'needs_approval', match, command: args.command, args };
      if (match) {
        const result = renderWireJson({
          error: `This command needs the user's approval (${match.description}), which a subagent cannot ask for.`,
        });
        return finish(site, toolName, args, result, ids, Math.trunc(performance.now() - started));
      }
    }
    try {
      result = await tool.run(args, context);
    } catch (error) {
      result = renderWireJson({ error: toolErrorText(error) });
    }
  }
  return finish(site, toolName, args, result, ids, Math.trunc(performance.now() - started));
}

async function finish(
  site: ToolCallSite,
  toolName: string,
  args: Record<string, unknown>,
  original: string,
  ids: Record<string, string>,
  durationMs: number,
): Promise<ToolCallOutcome> {
  // Every tool's result is redacted before anyone sees it: the model, post_tool_call, the transcript.
  const redacted = redactSecrets(original);
  const status = toolCallStatusOf(redacted);
  await firePost(site, toolName, args, redacted, ids, durationMs, status);
  let result = redacted;
  if (site.context.hooks.has('transform_tool_result')) {
    const results = await site.context.hooks.decide('transform_tool_result', {
      tool_name: toolName,
      args,
      result: redacted,
      ...ids,
      duration_ms: durationMs,
      ...status,
    });
    const replacement = hookAnswer('transform_tool_result', results).result;
    if (replacement !== undefined) result = redactSecrets(replacement);
  }
  return { kind: 'done', result };
}

function firePost(
  site: ToolCallSite,
  toolName: string,
  args: Record<string, unknown>,
  result: string,
  ids: Record<string, string>,
  durationMs: number,
  status: ToolCallStatus,
): Promise<void> {
  return site.context.hooks.observe(
    'post_tool_call',
    () => ({ tool_name: toolName, args, result, ...ids, duration_ms: durationMs, ...status, middleware_trace: [] }),
    { gated: true },
  );
}

/** §1.5: arguments that are not a JSON object become `{}`. */
function parseArgs(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** A tool's failure as the model reads it: errorText, but a missing file says which path, as `No such file or directory: <path>`. */
function toolErrorText(error: unknown): string {
  const errno = error instanceof Error ? (error as NodeJS.ErrnoException) : undefined;
  return errno?.code === 'ENOENT' ? `No such file or directory: ${errno.path ?? ''}` : errorText(error);
}
