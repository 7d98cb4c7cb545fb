import type { SQSClient } from '@aws-sdk/client-sqs';
import { readHooksConfig } from '../hooks/config-file.ts';
import { discoverHooksHome } from '../hooks/discover-hooks-home.ts';
import type { HooksHomeDescription } from '../hooks/hooks-home-description.ts';
import { createMemoryLogger } from '../hooks/hook-logger.ts';
import type { AllowlistStore } from '../hooks/shell/consent/allowlist-store.ts';
import { createFileAllowlistStore } from '../hooks/shell/consent/file-allowlist-store.ts';
import type { Replier } from '../messaging/replier.ts';
import { redactSecrets } from '../secrets/redact-secrets.ts';
import { parseShellHooks } from '../hooks/shell/config/parse-config.ts';
import { scriptDrift } from '../hooks/shell/consent/script-drift.ts';
import { driftPolicy } from '../hooks/shell/consent/drift-guard.ts';
import { shellHookRunState, type NotRunningReason } from '../hooks/shell/consent/shell-hook-run-state.ts';
import { DeadLetterQueue, type DeadLetter } from '../pipeline/dead-letter-queue.ts';
import type { DynamoTable } from '../store/dynamo-table.ts';
import { loadReplayEngine, replayTurn, type TurnReplay } from '../agent/trace/replay-turn.ts';
import { DynamoTraceStore, type TraceRecord } from '../store/trace-store.ts';
import { DynamoTranscriptStore } from '../store/dynamo-transcript-store.ts';
import type { TurnFilter, TurnSummary } from '../store/turn-summary.ts';
import { UndeliveredReplyStore } from '../store/undelivered-reply-store.ts';
import type { ReloadStatus } from './console-hub.ts';
import { errorText } from '../errors/error-text.ts';
import { hookRunStats, type HookRunStats } from './hook-run-stats.ts';
import { needsConsent } from '../hooks/shell/consent/needs-consent.ts';

const HOUR_MS = 3_600_000;

/** One session as the console lists it: its turns, newest session first. */
export interface ConsoleSession {
  session_id: string;
  turns: { turn_id: string; at: string }[];
  last_at: string;
}

/** One undelivered reply as the console lists it: the text only as a redacted excerpt. */
export interface ConsoleUndeliveredReply {
  id: string;
  turn_id: string;
  session_id: string;
  at: string;
  platform: string;
  chat_id: string;
  thread_id: string;
  /** Why it failed (redacted, cut). */
  error: string;
  /** The reply's first characters, secrets redacted. */
  excerpt: string;
  /** Set once a console retry delivered it. */
  delivered_at: string | null;
  retries: number;
}

/** How much of an undelivered reply the console shows. */
const UNDELIVERED_EXCERPT_CHARS = 280;

/** The dead-letter queues the console shows, by name. */
export const CONSOLE_DLQ_NAMES = ['turns', 'timers', 'events'] as const;

/** A dead-letter queue, by the name the console shows. */
export interface ConsoleDlq {
  name: (typeof CONSOLE_DLQ_NAMES)[number];
  dlqUrl: string;
  sourceQueueUrl: string;
}

export interface ShellHookStatus {
  event: string;
  /** The command, an http hook's URL, or `prompt: <text>`. */
  command: string;
  /** `http` / `prompt` (hook-semantics §5.10); absent for a command. */
  type?: 'http' | 'prompt';
  matcher: string | null;
  timeout: number;
  enabled: boolean;
  approved: boolean;
  approved_at: string | null;
  /** `content-changed` / `mtime-later` when the script moved since approval, else null. */
  drift: string | null;
  /** Whether it runs when its event fires (a guard that is off must say so). */
  running: boolean;
  /** Why it does not run (`not-approved`, `changed-since-approval`, `disabled`); null when it runs. */
  not_running: NotRunningReason | null;
}

export interface HooksStatus {
  home: string;
  config_path: string;
  /** `failed`: why the running hooks' load of an enabled plugin failed (it does not run); null when it loaded or nobody knows (AWS). */
  plugins: { name: string; dir: string; enabled: boolean; failed: string | null }[];
  gateway_hooks: { name: string; dir: string; events: readonly string[] }[];
  skipped: string[];
  shell_hooks: ShellHookStatus[];
  notices: string[];
  /** Hot reload: on or off, and how the latest reload went. */
  reload: ReloadStatus;
}

/** One plugin's load by the running engine, as `describeRegistry()` lists it. */
export interface PluginLoad {
  name: string;
  status: string;
  error?: string;
}

/**
 * What the console reads: the trace index of the table, the dead-letter queues and the hooks
 * home (re-read on every request, so it shows the disk as it is now).
 *
 * @example
 * const data = new ConsoleData({ table: plane.table, sqs: plane.clients.sqs, dlqs, home });
 * await data.sessions();
 */
export class ConsoleData {
  private readonly traces: DynamoTraceStore;
  /** The stored conversation trace records name (`kwargs_history`), for replays. */
  private readonly transcripts: DynamoTranscriptStore;
  private readonly undeliveredReplies: UndeliveredReplyStore;

  constructor(
    private readonly options: {
      table: DynamoTable;
      sqs: SQSClient;
      dlqs: readonly ConsoleDlq[];
      home: string;
      /** Where shell-hook consent is read: default the home's allowlist file (dev); the deployed table in AWS. */
      allowlist?: Pick<AllowlistStore, 'find'>;
      /** Hot reload's state, shown in the hooks panel (dev; absent: no hot reload). */
      reloadStatus?: () => ReloadStatus;
      /** How the running engine's plugins loaded (dev): a failed one shows as not running. */
      pluginLoads?: () => readonly PluginLoad[] | undefined;
      /** The home as described at build time (AWS: the bundle ships manifests, not plugin sources, so discovery there finds none). */
      description?: HooksHomeDescription;
    },
  ) {
    this.traces = new DynamoTraceStore(options.table);
    this.transcripts = new DynamoTranscriptStore(options.table);
    this.undeliveredReplies = new UndeliveredReplyStore(options.table);
  }

  /**
   * The sessions of the recent turns (the trace store's `TRACE_RECENT#<day>` index, a Query
   * per day, never a Scan), the most recently active first.
   */
  async sessions(limit = 50): Promise<ConsoleSession[]> {
    const byId = new Map<string, ConsoleSession>();
    for (const { session_id: id, turn_id: turnId, at } of await this.traces.recentTurns()) {
      const session = byId.get(id) ?? { session_id: id, turns: [], last_at: '' };
      if (!session.turns.some((t) => t.turn_id === turnId)) session.turns.push({ turn_id: turnId, at });
      if (at > session.last_at) session.last_at = at;
      byId.set(id, session);
    }
    const sessions = [...byId.values()];
    for (const s of sessions) s.turns.sort((a, b) => a.at.localeCompare(b.at));
    return sessions.sort((a, b) => b.last_at.localeCompare(a.last_at)).slice(0, limit);
  }

  turn(turnId: string): Promise<TraceRecord[]> {
    return this.traces.list(turnId);
  }

  /** Per hook and callback over every turn of a session: runs, p50 and p95 durations. */
  async sessionHookStats(sessionId: string): Promise<HookRunStats[]> {
    return hookRunStats(await this.traces.listSession(sessionId));
  }

  /**
   * Per hook and callback over the turns recorded in the last `windowMs` (default an hour):
   * runs, p50 and p95 durations. Reads the recent-turns index of today and yesterday and at
   * most `maxTurns` turns (newest first, default 200), so that a busy hour costs a bounded
   * number of reads; `turns` says how many were read.
   *
   * @example
   * await data.recentHookStats(); // { turns: 12, stats: [{ hook: 'pre_tool_call', callback: 'guard: no_rm', runs: 30, p50_ms: 1, p95_ms: 3 }] }
   */
  async recentHookStats(
    options: { windowMs?: number; now?: Date; maxTurns?: number } = {},
  ): Promise<{ turns: number; stats: HookRunStats[] }> {
    const now = options.now ?? new Date();
    const since = new Date(now.getTime() - (options.windowMs ?? HOUR_MS)).toISOString();
    const recent = await this.traces.recentTurns({ days: 2, limit: options.maxTurns ?? 200, now });
    const turnIds = [...new Set(recent.filter((t) => t.at >= since).map((t) => t.turn_id))];
    const records = (await Promise.all(turnIds.map((id) => this.traces.list(id)))).flat();
    return { turns: turnIds.length, stats: hookRunStats(records.filter((r) => r.at >= since)) };
  }

  /** The recent turns that match `filter`, newest first, one page of them (the console's list). */
  turns(filter: TurnFilter, page: { limit: number; offset: number }): Promise<{ turns: TurnSummary[]; total: number }> {
    return this.traces.listTurns(filter, page);
  }

  /**
   * The turn's decision-hook calls run again against the hooks home as it is on disk now (as
   * `hookgate replay` does); undefined when nothing was recorded for it.
   */
  async replayTurn(turnId: string): Promise<TurnReplay | undefined> {
    const records = await this.traces.list(turnId);
    if (records.length === 0) return undefined;
    const engine = await loadReplayEngine(this.options.home);
    try {
      return await replayTurn(turnId, records, engine, this.transcripts);
    } finally {
      await engine.close();
    }
  }

  /** The names of the dead-letter queues this console shows. */
  dlqNames(): string[] {
    return this.options.dlqs.map((d) => d.name);
  }

  hasDlq(name: string): boolean {
    return this.options.dlqs.some((d) => d.name === name);
  }

  private dlq(name: string): DeadLetterQueue {
    const dlq = this.options.dlqs.find((d) => d.name === name);
    if (!dlq) throw new RangeError(`no dead-letter queue named ${JSON.stringify(name)}`);
    // A short hold: the console lists often, and a listed message must be replayable soon after.
    return new DeadLetterQueue({ sqs: this.options.sqs, dlqUrl: dlq.dlqUrl, sourceQueueUrl: dlq.sourceQueueUrl, holdSeconds: 2 });
  }

  /**
   * What each dead-letter queue holds, without the bodies: a turn message carries the user's
   * text and the reply target's extras (a Discord interaction token); the console lists and
   * replays by id, and `hookgate dlq list` shows bodies to the operator at the terminal.
   */
  async deadLetters(): Promise<{ queue: string; messages: Omit<DeadLetter, 'body'>[] }[]> {
    return Promise.all(
      this.options.dlqs.map(async (d) => ({
        queue: d.name,
        messages: (await this.dlq(d.name).list()).map(({ body: _body, ...listed }) => listed),
      })),
    );
  }

  replay(queue: string, id?: string): Promise<DeadLetter[]> {
    return this.dlq(queue).replay(id ? { id } : {});
  }

  /** The replies the platforms never took, newest first; the text only as a redacted excerpt. */
  async undelivered(): Promise<ConsoleUndeliveredReply[]> {
    return (await this.undeliveredReplies.list()).map((r) => ({
      id: r.id,
      turn_id: r.turn_id,
      session_id: r.session_id,
      at: r.at,
      platform: r.platform,
      chat_id: r.chat_id,
      thread_id: r.thread_id,
      error: excerpt(r.error, 500),
      excerpt: excerpt(r.text, UNDELIVERED_EXCERPT_CHARS),
      delivered_at: r.delivered_at ?? null,
      retries: r.retries,
    }));
  }

  /**
   * Sends an undelivered reply again through `replier` (the gateway's, with its retry policy
   * and redaction) to the chat it was meant for. The reply target's `extra` was never kept
   * (it may be a credential, such as a Discord interaction token), so the send goes the way a
   * reply without it does.
   */
  async retryUndelivered(
    id: string,
    replier: Replier,
  ): Promise<{ outcome: 'delivered' | 'failed' | 'not-found' | 'busy'; error?: string }> {
    const reply = await this.undeliveredReplies.get(id);
    if (!reply) return { outcome: 'not-found' };
    if (!(await this.undeliveredReplies.claim(id))) return { outcome: 'busy' };
    try {
      await replier.send({ platform: reply.platform, chat_id: reply.chat_id, thread_id: reply.thread_id, extra: {} }, reply.text);
    } catch (error) {
      const message = excerpt(errorText(error), 500);
      await this.undeliveredReplies.settle(id, { delivered: false, error: message });
      return { outcome: 'failed', error: message };
    }
    await this.undeliveredReplies.settle(id, { delivered: true });
    return { outcome: 'delivered' };
  }

  async hooks(): Promise<HooksStatus> {
    const { home } = this.options;
    const logger = createMemoryLogger();
    const description = this.options.description ?? (await discoverHooksHome(home, { gatewayHooks: true }));
    const file = await readHooksConfig(home);
    const entries = parseShellHooks(file.config, logger);
    const allowlist = this.options.allowlist ?? createFileAllowlistStore(home, logger);
    const shell: ShellHookStatus[] = [];
    const onDrift = driftPolicy(file.config, logger);
    for (const entry of entries) {
      // An http hook's URL has nothing on disk to drift.
      const approval = needsConsent(entry) ? await allowlist.find(entry.event, entry.command) : undefined;
      const approvedAt =
        approval && typeof approval.approved_at === 'string' && approval.approved_at !== '' ? approval.approved_at : null;
      const drift = approval && entry.type !== 'http' ? scriptDrift(approval, entry.command).kind : 'unknown';
      const state = shellHookRunState(entry, approval, onDrift);
      shell.push({
        event: entry.event,
        command: entry.command,
        ...(entry.type === 'http' || entry.type === 'prompt' ? { type: entry.type } : {}),
        matcher: entry.matcher,
        timeout: entry.timeout,
        enabled: entry.enabled,
        approved: !needsConsent(entry) || approval !== undefined,
        approved_at: approvedAt,
        drift: drift === 'content-changed' || drift === 'mtime-later' ? drift : null,
        running: state.running,
        not_running: state.running ? null : state.reason,
      });
    }
    const loads = this.options.pluginLoads?.() ?? [];
    const failedLoad = (name: string) => {
      const load = loads.find((l) => l.name === name && l.status === 'failed');
      return load ? excerpt(load.error ?? 'unknown error', 300) : null;
    };
    return {
      home,
      config_path: file.path,
      plugins: description.plugins.map((p) => {
        const enabled = p.enabled && !p.disabled;
        return { name: p.name, dir: p.dir, enabled, failed: enabled ? failedLoad(p.name) : null };
      }),
      gateway_hooks: description.gatewayHooks.flatMap((g) =>
        g.kind === 'hook' ? [{ name: g.name, dir: g.dir, events: g.events }] : [],
      ),
      skipped: description.gatewayHooks.flatMap((g) => (g.kind === 'skip' ? [g.line] : [])),
      shell_hooks: shell,
      notices: [...description.notices.map((n) => `${n.level}: ${n.message}`), ...(file.warning ? [file.warning] : [])],
      reload: this.options.reloadStatus?.() ?? { watching: false },
    };
  }
}

/** Secrets redacted first (so a cut never leaves half a secret readable), then cut. */
function excerpt(text: string, limit: number): string {
  const redacted = redactSecrets(text);
  return redacted.length > limit ? `${redacted.slice(0, limit)}… (${redacted.length - limit} more characters)` : redacted;
}
