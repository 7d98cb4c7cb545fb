import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { readHooksConfig } from '../hooks/config-file.ts';
import { discoverHooksHome } from '../hooks/discover-hooks-home.ts';
import { createMemoryLogger } from '../hooks/hook-logger.ts';
import { createFileAllowlistStore } from '../hooks/shell/file-allowlist-store.ts';
import { parseShellHooks } from '../hooks/shell/parse-config.ts';
import { scriptDrift } from '../hooks/shell/script-drift.ts';
import { DeadLetterQueue, type DeadLetter } from '../pipeline/dead-letter-queue.ts';
import type { DynamoTable } from '../store/dynamo-table.ts';
import { DynamoTraceStore, type TraceRecord } from '../store/trace-store.ts';
import type { ReloadStatus } from './console-hub.ts';

/** One session as the console lists it: its turns, newest session first. */
export interface ConsoleSession {
  session_id: string;
  turns: { turn_id: string; at: string }[];
  last_at: string;
}

/** A dead-letter queue of `hookgate dev`, by the name the console shows. */
export interface ConsoleDlq {
  name: 'turns' | 'events';
  dlqUrl: string;
  sourceQueueUrl: string;
}

export interface ShellHookStatus {
  event: string;
  command: string;
  matcher: string | null;
  timeout: number;
  enabled: boolean;
  approved: boolean;
  approved_at: string | null;
  /** `content-changed` / `mtime-later` when the script moved since approval, else null. */
  drift: string | null;
}

export interface HooksStatus {
  home: string;
  config_path: string;
  plugins: { name: string; dir: string; enabled: boolean }[];
  gateway_hooks: { name: string; dir: string; events: readonly string[] }[];
  skipped: string[];
  shell_hooks: ShellHookStatus[];
  notices: string[];
  /** Hot reload: on or off, and how the latest reload went. */
  reload: ReloadStatus;
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

  constructor(
    private readonly options: { table: DynamoTable; sqs: SQSClient; dlqs: readonly ConsoleDlq[]; home: string; reloadStatus?: () => ReloadStatus },
  ) {
    this.traces = new DynamoTraceStore(options.table);
  }

  /**
   * Every session with recorded turns. A Scan: fine for the one-machine dev table, which is
   * the only place the console runs by default.
   */
  async sessions(limit = 50): Promise<ConsoleSession[]> {
    const { table } = this.options;
    const byId = new Map<string, ConsoleSession>();
    let start: Record<string, unknown> | undefined;
    do {
      const page = await table.doc.send(
        new ScanCommand({
          TableName: table.tableName,
          FilterExpression: 'begins_with(PK, :p)',
          ExpressionAttributeValues: { ':p': 'TRACE_SESSION#' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const id = String(item.PK).slice('TRACE_SESSION#'.length);
        const at = String(item.SK).split('#')[1] ?? '';
        const session = byId.get(id) ?? { session_id: id, turns: [], last_at: '' };
        const turnId = String(item.turn_id);
        if (!session.turns.some((t) => t.turn_id === turnId)) session.turns.push({ turn_id: turnId, at });
        if (at > session.last_at) session.last_at = at;
        byId.set(id, session);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    const sessions = [...byId.values()];
    for (const s of sessions) s.turns.sort((a, b) => a.at.localeCompare(b.at));
    return sessions.sort((a, b) => b.last_at.localeCompare(a.last_at)).slice(0, limit);
  }

  turn(turnId: string): Promise<TraceRecord[]> {
    return this.traces.list(turnId);
  }

  private dlq(name: string): DeadLetterQueue {
    const dlq = this.options.dlqs.find((d) => d.name === name);
    if (!dlq) throw new RangeError(`no dead-letter queue named ${JSON.stringify(name)}`);
    // A short hold: the console lists often, and a listed message must be replayable soon after.
    return new DeadLetterQueue({ sqs: this.options.sqs, dlqUrl: dlq.dlqUrl, sourceQueueUrl: dlq.sourceQueueUrl, holdSeconds: 2 });
  }

  async deadLetters(): Promise<{ queue: string; messages: DeadLetter[] }[]> {
    return Promise.all(this.options.dlqs.map(async (d) => ({ queue: d.name, messages: await this.dlq(d.name).list() })));
  }

  replay(queue: string, id?: string): Promise<DeadLetter[]> {
    return this.dlq(queue).replay(id ? { id } : {});
  }

  async hooks(): Promise<HooksStatus> {
    const { home } = this.options;
    const logger = createMemoryLogger();
    const description = await discoverHooksHome(home, { gatewayHooks: true });
    const file = await readHooksConfig(home);
    const entries = parseShellHooks(file.config, logger);
    const allowlist = createFileAllowlistStore(home, logger);
    const shell: ShellHookStatus[] = [];
    for (const entry of entries) {
      const approval = await allowlist.find(entry.event, entry.command);
      const approvedAt = approval && typeof approval.approved_at === 'string' && approval.approved_at !== '' ? approval.approved_at : null;
      const drift = approval ? scriptDrift(approval, entry.command).kind : 'unknown';
      shell.push({
        event: entry.event,
        command: entry.command,
        matcher: entry.matcher,
        timeout: entry.timeout,
        enabled: entry.enabled,
        approved: approval !== undefined,
        approved_at: approvedAt,
        drift: drift === 'content-changed' || drift === 'mtime-later' ? drift : null,
      });
    }
    return {
      home,
      config_path: file.path,
      plugins: description.plugins.map((p) => ({ name: p.name, dir: p.dir, enabled: p.enabled && !p.disabled })),
      gateway_hooks: description.gatewayHooks.flatMap((g) => (g.kind === 'hook' ? [{ name: g.name, dir: g.dir, events: g.events }] : [])),
      skipped: description.gatewayHooks.flatMap((g) => (g.kind === 'skip' ? [g.line] : [])),
      shell_hooks: shell,
      notices: [...description.notices.map((n) => `${n.level}: ${n.message}`), ...(file.warning ? [file.warning] : [])],
      reload: this.options.reloadStatus?.() ?? { watching: false },
    };
  }
}
