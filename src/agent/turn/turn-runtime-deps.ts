import type { Replier } from '../../messaging/replier.ts';
import type { HookEngine } from '../../hooks/hook-engine.ts';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import type { TimerQueue } from '../../pipeline/timer-queue-sender.ts';
import type { TurnQueue } from '../../pipeline/turn-queue-sender.ts';
import type { ApprovalStore } from '../../store/approval-store.ts';
import type { HandledDeliveryStore } from '../../store/handled-delivery-store.ts';
import type { SessionStore } from '../../store/session-store.ts';
import type { TraceStore } from '../../store/trace-store.ts';
import type { TranscriptStore } from '../../store/transcript-store.ts';
import type { RetryPolicy } from '../model/call-model.ts';
import type { ModelTransport } from '../model/model-transport.ts';
import type { ToolSandbox } from '../sandbox/tool-sandbox.ts';
import type { Tool } from '../tools/tool.ts';
import type { ToolPolicy } from '../tools/tool-policy.ts';
import type { ChatToolSets } from '../../config/chat-tool-sets.ts';
import type { HistoryWindow } from './history-window.ts';
import type { TurnsInFlight } from './turns-in-flight.ts';
import type { AttachmentDeps } from '../attachments/take-in-attachments.ts';

/** Everything the turn runtime runs on; `functions/turn.ts` and `hookgate dev` build it. */
export interface TurnRuntimeDeps {
  engine: HookEngine;
  logger: HookLogger;
  transport: ModelTransport;
  sessions: SessionStore;
  transcripts: TranscriptStore;
  approvals: ApprovalStore;
  /** Approval timeouts go here (a delayed message). */
  timers: TimerQueue;
  /** Due timers are forwarded here, in their session's group. */
  turns: TurnQueue;
  replier: Replier;
  traces?: TraceStore;
  /**
   * Records the deliveries whose turn ended, so that a turn message SQS delivers again after
   * its turn finished is skipped instead of answered twice. Without it, every delivery runs.
   */
  handled?: HandledDeliveryStore;
  /**
   * Where the tools a chat user causes run (hook-semantics §5.9). Without it: the one
   * `toolPolicy` configures on this machine (`selectToolSandbox`, host `local`: bubblewrap
   * where it runs, else every tool call refused) under `workspaceRoot`. Composition roots pass it.
   */
  sandbox?: ToolSandbox;
  /** Per-session workspaces live under it (`<root>/<session id>`) when no sandbox is given. Default `<tmpdir>/hookgate-workspaces`. */
  workspaceRoot?: string;
  /** Default 25. */
  maxIterations?: number;
  /** How long a `/stop` read started with a step's tools still answers the check after them. Default `STOP_READ_REUSE_MS` (agent-loop.ts). */
  stopReadReuseMs?: number;
  /** How much stored conversation a turn sends to the model. Default `DEFAULT_HISTORY_WINDOW` (history-window.ts). */
  historyWindow?: HistoryWindow;
  /** Seconds until an unanswered approval resumes with `timeout`. Default 300. */
  approvalTimeoutSeconds?: number;
  /** Idle sessions older than this start a new session. Unset = never. */
  sessionIdleSeconds?: number;
  retry?: RetryPolicy;
  /** What the operator loosened for the tools (config.yaml `terminal.env_passthrough`, `files.allowed_roots`). Default: the safe defaults. */
  toolPolicy?: ToolPolicy;
  /** Downloads and stores inbound attachments (docs/attachments.md). Absent: attachments are noted, not fetched. */
  attachments?: AttachmentDeps;
  /** config.yaml `tools:`: which tools each chat may use (§5.10). Default: every tool in every chat. */
  toolSets?: ChatToolSets;
  /** Replaces the built-in tools (tests, restricted deployments). */
  tools?: ReadonlyMap<string, Tool>;
  now?: () => Date;
  /**
   * Aborted when this invocation must wrap up (the Lambda deadline): model calls stop, and the
   * turn ends with an error reply instead of being cut off and redelivered to run again.
   */
  signal?: AbortSignal;
  /** Records each invocation of a turn while it runs (`hookgate dev`: `/healthz`, and the shutdown finalizes their sessions). */
  turnsInFlight?: TurnsInFlight;
}
