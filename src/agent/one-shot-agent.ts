import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { selectToolSandbox, type ToolHost } from './sandbox/select-tool-sandbox.ts';
import type { ToolSandbox } from './sandbox/tool-sandbox.ts';
import { toolPolicyFromConfig } from './tools/tool-policy.ts';
import { readHooksConfig } from '../hooks/config-file.ts';
import { resolveHooksHome } from '../hooks/hooks-home.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { createStderrLogger, type HookLogger } from '../hooks/hook-logger.ts';
import { loadModelConfig } from '../config/deployment-config.ts';
import { modelFromConfig } from './model/model-from-config.ts';
import type { ModelTransport } from './model/model-transport.ts';
import { CHILD_TOOLS } from './tools/tool-set.ts';
import { runAgentLoop } from './turn/agent-loop.ts';
import { NO_HOOKS_ENGINE } from './turn/no-hooks-engine.ts';
import { SYSTEM_PROMPT } from './turn/system-prompt.ts';
import { TurnHooks } from './turn/turn-hooks.ts';
import { detectDangerousCommand } from './approvals/dangerous-commands.ts';

export interface OneShotAgentOptions {
  prompt: string;
  /** Default: the deployment's model from HOOKGATE_MODEL* (the stand-in when unset; a malformed one throws ConfigError). */
  transport?: ModelTransport;
  /** Plugin hooks fire around its tools and model requests when given. */
  engine?: HookEngine;
  /**
   * Where its tools run. Default: the sandbox the hooks home's config.yaml chooses
   * (`terminal.sandbox`, hook-semantics §5.9) — bubblewrap on this machine, refused in Lambda
   * unless `none` — with the workspace `workspace` (default a fresh folder under the temp dir).
   */
  sandbox?: ToolSandbox;
  workspace?: string;
  /** Default 20, like the seed's boot agent. */
  maxIterations?: number;
  platform?: string;
  logger?: HookLogger;
}

export interface OneShotResult {
  outcome: 'completed' | 'exhausted' | 'failed';
  /** The final response, or null when there was none. */
  response: string | null;
}

/**
 * A one-shot agent outside any chat (e.g. the BOOT.md checklist on gateway start): the same
 * tool loop and model as a turn, no delegation, and dangerous commands refused (there is
 * nobody to ask).
 *
 * @example
 * const { response } = await runOneShotAgent({ prompt: 'run: df -h' });
 */
export async function runOneShotAgent(options: OneShotAgentOptions): Promise<OneShotResult> {
  const transport = options.transport ?? modelFromConfig(loadModelConfig(process.env));
  const sessionId = `oneshot_${randomUUID()}`;
  const turnId = `turn_${randomUUID()}`;
  const logger = options.logger ?? createStderrLogger();
  const hooks = new TurnHooks(options.engine ?? NO_HOOKS_ENGINE, logger, { session_id: sessionId, turn_id: turnId });
  // Its observer events are handed over before it returns or throws (TurnHooks sends them in the background).
  const outcome = await runAgentLoop(
    {
      transport,
      hooks,
      tools: CHILD_TOOLS,
      systemPrompt: SYSTEM_PROMPT,
      history: [],
      sandbox: options.sandbox ?? (await configuredSandbox(options, logger)),
      workspaceSession: { sessionId: options.workspace ? basename(options.workspace) : sessionId },
      maxIterations: options.maxIterations ?? 20,
      approvals: { canAsk: false, check: async (command) => detectDangerousCommand(command) },
      // Gateway events belong to chat turns; a one-shot run emits none.
      subagentId: sessionId,
    },
    {
      v: 1,
      turn_id: turnId,
      task_id: sessionId,
      session_id: sessionId,
      session_key: '',
      platform: options.platform ?? 'gateway',
      user_id: null,
      model: transport.model,
      reply: { platform: '', chat_id: '', thread_id: '', extra: {} },
      started_at: new Date().toISOString(),
      user_message: options.prompt,
      injected_context: null,
      messages: [{ role: 'user', content: options.prompt }],
      iteration: 0,
      api_call_count: 0,
      pending_calls: [],
      step_tools: [],
      agent_start: {},
    },
  ).finally(() => hooks.flush());
  if (outcome.kind === 'final') return { outcome: 'completed', response: outcome.response };
  return { outcome: outcome.kind === 'exhausted' ? 'exhausted' : 'failed', response: null };
}

/**
 * The sandbox config.yaml chooses, as a turn's: the engine's config when given, else the hooks
 * home's. In Lambda (the BOOT checklist runs in the observer function) the host is `lambda`.
 */
async function configuredSandbox(options: OneShotAgentOptions, logger: HookLogger): Promise<ToolSandbox> {
  const home = options.engine?.home ?? resolveHooksHome();
  const config = options.engine?.config ?? (await readHooksConfig(home)).config;
  const host: ToolHost = process.env.AWS_LAMBDA_FUNCTION_NAME ? 'lambda' : 'local';
  const choice = selectToolSandbox({
    host,
    config: toolPolicyFromConfig(config, home, logger),
    workspaceRoot: options.workspace ? dirname(options.workspace) : join(tmpdir(), 'hookgate-workspaces'),
  });
  if (choice.notice) logger.warn(`tool sandbox: ${choice.notice}`);
  return choice.sandbox;
}
