import * as z from '../validation/zod.ts';
import type { TraceRecord } from './trace-store.ts';

/**
 * One turn as the console's list and `hookgate trace --list` show it, kept on the trace
 * store's recent-turns index (one per invocation of the turn; a resumed turn's are merged).
 */
export interface TurnSummary {
  turn_id: string;
  session_id: string;
  /** When its first hook call started (ISO-8601). */
  at: string;
  /** From its first hook call's start to its last one's end. */
  duration_ms: number;
  platform: string;
  chat_id: string;
  user_id: string;
  /** The first line of the user's message (cut at {@link FIRST_LINE_CHARS}). */
  first_line: string;
  /** Every hook name, callback and plugin that ran in it (what `--hook` matches). */
  hooks: string[];
  /** The decisions' first words (`allow`, `block`, `context`, `replaced`, `error`, …: what `--decision` matches). */
  decisions: string[];
  blocked: boolean;
  error: boolean;
  /** An approval was asked in it. */
  approval: boolean;
  /** Hook calls recorded (callback records). */
  records: number;
}

/** How much of the message's first line a summary keeps. */
export const FIRST_LINE_CHARS = 120;

const AgentStart = z.object({
  platform: z.optional(z.string()),
  chat_id: z.optional(z.string()),
  user_id: z.nullish(z.string()),
  message: z.optional(z.string()),
});

/** The first word of a decision: `block: no` → `block`, `context (12 chars)` → `context`. */
export function decisionWord(decision: string): string {
  return /^[a-z_ -]+?(?=[:(]|$)/i.exec(decision)?.[0]?.trim().toLowerCase() ?? decision;
}

/**
 * What one invocation's records say of their turn: the chat, user and message from its
 * `agent:start` call's kwargs, the hooks that ran, the decisions and badges.
 *
 * @example
 * const summary = summarizeTurn(records, sessionId);
 */
export function summarizeTurn(records: readonly TraceRecord[], sessionId: string): TurnSummary {
  const first = records[0]!;
  let start: z.infer<typeof AgentStart> = {};
  const agentStart = records.find((r) => r.hook === 'agent:start' && r.kwargs !== undefined && !r.kwargs_cut);
  if (agentStart) {
    try {
      const parsed = AgentStart.safeParse(JSON.parse(agentStart.kwargs!));
      if (parsed.success) start = parsed.data;
    } catch {
      // Not JSON: the summary goes without it.
    }
  }
  const hooks = new Set<string>();
  const decisions = new Set<string>();
  let end = Date.parse(first.at);
  for (const r of records) {
    hooks.add(r.hook);
    if (r.source !== '-') hooks.add(r.callback);
    if (r.plugin) hooks.add(r.plugin);
    decisions.add(decisionWord(r.decision));
    if (r.outcome) decisions.add(decisionWord(r.outcome));
    end = Math.max(end, Date.parse(r.at) + r.duration_ms);
  }
  const line = (start.message ?? '').split('\n', 1)[0] ?? '';
  return {
    turn_id: first.turn_id,
    session_id: sessionId,
    at: first.at,
    duration_ms: Math.max(0, end - Date.parse(first.at)),
    platform: start.platform ?? '',
    chat_id: start.chat_id ?? '',
    user_id: start.user_id ?? '',
    first_line: line.length > FIRST_LINE_CHARS ? `${line.slice(0, FIRST_LINE_CHARS)}…` : line,
    hooks: [...hooks],
    decisions: [...decisions],
    blocked: decisions.has('block'),
    error: decisions.has('error') || decisions.has('undelivered'),
    approval: records.some((r) => r.hook === 'pre_approval_request' || r.hook === 'post_approval_response'),
    records: records.length,
  };
}

/** One turn's summaries from several invocations (a turn resumed after an approval), merged. */
export function mergeTurnSummaries(a: TurnSummary, b: TurnSummary): TurnSummary {
  const [early, late] = a.at <= b.at ? [a, b] : [b, a];
  const end = Math.max(Date.parse(early.at) + early.duration_ms, Date.parse(late.at) + late.duration_ms);
  return {
    ...early,
    platform: early.platform || late.platform,
    chat_id: early.chat_id || late.chat_id,
    user_id: early.user_id || late.user_id,
    first_line: early.first_line || late.first_line,
    duration_ms: end - Date.parse(early.at),
    hooks: [...new Set([...early.hooks, ...late.hooks])],
    decisions: [...new Set([...early.decisions, ...late.decisions])],
    blocked: early.blocked || late.blocked,
    error: early.error || late.error,
    approval: early.approval || late.approval,
    records: early.records + late.records,
  };
}

/** What the console's list and `hookgate trace --list` filter turns by; every given field must match. */
export interface TurnFilter {
  /** The chat id (or `<platform>:<chat id>`). */
  chat?: string;
  user?: string;
  /** A hook name, callback or plugin that ran in the turn. */
  hook?: string;
  /** A decision's first word (`block`, `allow`, `error`, `context`, `replaced`, …). */
  decision?: string;
  /** Only turns with an error. */
  error?: boolean;
  /** Case-insensitive text in the message's first line, chat, user, turn or session id. */
  text?: string;
}

/**
 * @example
 * turns.filter((t) => matchesTurn(t, { decision: 'block' }));
 */
export function matchesTurn(turn: TurnSummary, filter: TurnFilter): boolean {
  if (filter.chat && filter.chat !== turn.chat_id && filter.chat !== `${turn.platform}:${turn.chat_id}`) return false;
  if (filter.user && filter.user !== turn.user_id) return false;
  if (filter.hook && !turn.hooks.includes(filter.hook)) return false;
  if (filter.decision && !turn.decisions.includes(decisionWord(filter.decision))) return false;
  if (filter.error && !turn.error) return false;
  if (filter.text) {
    const needle = filter.text.toLowerCase();
    const hay = [turn.first_line, turn.chat_id, turn.user_id, turn.turn_id, turn.session_id, turn.platform]
      .join('\n')
      .toLowerCase();
    if (!hay.includes(needle)) return false;
  }
  return true;
}
