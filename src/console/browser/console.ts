/**
 * The console's browser script, served as `/console/app.js` (generated into ../console-script.ts
 * by `npm run console-script`): no framework. Everything it shows is set through `textContent`
 * (never as HTML), since chat text and hook output are hostile. In dev, mutations send
 * `x-hookgate-console: 1`, which a cross-site form cannot; in AWS (`<body data-mode="aws">`)
 * every API call carries `Authorization: Bearer <token>`, the token asked for once and kept in
 * this tab's sessionStorage (never in a URL or a cookie).
 *
 * The interfaces below describe the JSON the console API sends (src/console/mount-console.ts);
 * the server builds it, so the page trusts its shape rather than carry a validator.
 */
import { hookRunStats, type HookRunStats } from '../hook-run-stats.ts';
import { visibleBidi } from '../visible-bidi.ts';

/** A row of the turn list (GET turns). */
interface TurnSummary {
  turn_id: string;
  session_id?: string;
  platform?: string;
  chat_id?: string;
  user_id?: string;
  first_line?: string;
  at: string;
  duration_ms: number;
  blocked?: boolean;
  error?: boolean;
  approval?: boolean;
}

/** One hook call of a turn (GET turns/<id>): kwargs and result are JSON text, maybe cut. */
interface HookRecord {
  at: string;
  hook: string;
  source: string;
  plugin?: string;
  callback: string;
  decision: string;
  outcome?: string;
  duration_ms: number;
  kwargs?: string;
  kwargs_cut?: boolean;
  kwargs_history?: { session_id: string; from_seq: number; to_seq: number; count: number };
  result?: string;
  exit_code?: number | null;
  stdout?: string;
  stderr?: string;
}

/** POST turns/<id>/replay: how each decision-hook call decides now. */
interface ReplayOutcome {
  error?: string;
  exit_code: number;
  differs: number;
  not_replayable?: number;
  calls: { status: string; hook: string; before: string; now?: string | null; note?: string | null }[];
}

/** A reply that did not reach its chat (GET undelivered). */
interface UndeliveredReply {
  id: string;
  platform: string;
  chat_id: string;
  thread_id?: string | null;
  at: string;
  turn_id: string;
  retries?: number;
  delivered_at?: string | null;
  error?: string;
  excerpt: string;
}

/** A dead-letter queue and its messages (GET dlq). */
interface DlqQueue {
  queue: string;
  messages: { id?: string | null; messageId?: string; type?: string; sentAt?: string; receiveCount: number }[];
}

/** What runs (GET hooks): plugins, gateway hooks, shell hooks and their consent, hot reload. */
interface HooksView {
  plugins: { name: string; dir: string; enabled: boolean; failed?: string }[];
  gateway_hooks: { name: string; dir: string; events: string[] }[];
  skipped: string[];
  config_path: string;
  reload: { watching: boolean; last?: { ok: boolean; at: string; message: string } | null };
  shell_hooks: {
    event: string;
    command: string;
    matcher: string | null;
    enabled: boolean;
    approved: boolean;
    approved_at?: string | null;
    running?: boolean;
    not_running?: string;
    drift?: string | null;
  }[];
  notices: string[];
}

/** The answer of a mutation: a message, or why it was refused. */
interface ActionAnswer {
  message?: string;
  error?: string;
}

/** The events of /console/events (dev). */
interface ReplyEvent {
  platform: string;
  chat_id: string;
  text: string;
}
interface ReloadEvent {
  ok: boolean;
  message: string;
}
interface ObserverEvent {
  at: string;
  type: string;
  turn_id?: string;
  payload: unknown;
}

/** The message the chat form posts to /webhooks/local. */
interface LocalMessage {
  chat_id: string;
  user_id: string;
  text: string;
  attachments?: { name: string; mime_type: string; data_base64: string }[];
}

/** An element of the page (console-page.ts), typed as the caller says it is. */
const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
/** Every element the console builds: its text and title with bidirectional controls written out (visibleBidi). */
const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const shown: Partial<HTMLElementTagNameMap[K]> = { ...props };
  const text = shown as { textContent?: unknown; title?: unknown };
  if (typeof text.textContent === 'string') text.textContent = visibleBidi(text.textContent);
  if (typeof text.title === 'string') text.title = visibleBidi(text.title);
  const node = Object.assign(document.createElement(tag), shown);
  for (const child of children) node.append(typeof child === 'string' ? visibleBidi(child) : child);
  return node;
};
/** A table under `headers` around `body`, in a box that scrolls sideways on a narrow page. */
const scrollTable = (headers: readonly string[], body: HTMLTableSectionElement): HTMLDivElement =>
  el(
    'div',
    { className: 'scroll' },
    el('table', {}, el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { textContent: h })))), body),
  );
/** A named control of a form (the page's forms hold inputs and a textarea). */
const field = (form: HTMLFormElement, name: string): HTMLInputElement => form.elements.namedItem(name) as HTMLInputElement;
const AWS = document.body.dataset.mode === 'aws';
const TOKEN_KEY = 'hookgate-console-token';
let selectedTurn: string | null = null;
let followLatest = true;

class Unauthorized extends Error {}

/** Every console API call: the token in AWS, the console header on dev mutations. */
async function api(
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (AWS) headers.authorization = `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ''}`;
  else if ((init.method ?? 'GET') !== 'GET') headers['x-hookgate-console'] = '1';
  const res = await fetch(`/console/api/${path}`, { ...init, headers, cache: 'no-store' });
  if (res.status === 401 && AWS) {
    sessionStorage.removeItem(TOKEN_KEY);
    showGate('the token was refused');
    throw new Unauthorized('401');
  }
  return res;
}
const getJson = async <T>(path: string): Promise<T> => (await api(path)).json() as Promise<T>;
const post = (path: string, body: unknown): Promise<Response> => api(path, { method: 'POST', body: JSON.stringify(body) });

const PAGE = 25;
let turnOffset = 0;

/** The filter form as query parameters (empty fields left out). */
function turnQuery() {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData($<HTMLFormElement>('turn-filters'))) if (value) params.set(key, String(value));
  params.set('limit', String(PAGE));
  params.set('offset', String(turnOffset));
  return params.toString();
}

const badge = (kind: string, text: string): HTMLSpanElement => el('span', { className: `badge ${kind}`, textContent: text });

/** The turn list: the newest first, filtered, one page at a time. */
async function loadSessions(): Promise<TurnSummary[]> {
  const { turns, total } = await getJson<{ turns: TurnSummary[]; total: number }>(`turns?${turnQuery()}`);
  const list = $('sessions');
  list.replaceChildren();
  if (turns.length === 0)
    list.append(
      el('li', { className: 'muted', textContent: total === 0 && turnOffset === 0 ? 'no turns match' : 'no more turns' }),
    );
  for (const t of turns) {
    const badges = el('span');
    if (t.blocked) badges.append(badge('block', 'blocked'));
    if (t.error) badges.append(badge('error', 'error'));
    if (t.approval) badges.append(badge('approval', 'approval'));
    const where = `${(t.platform ? `${t.platform}:` : '') + (t.chat_id || '?')} · ${t.user_id || '?'}`;
    const a = el(
      'a',
      { className: t.turn_id === selectedTurn ? 'sel' : '' },
      el('span', { className: 'first' }, badges, t.first_line || '(no message recorded)'),
      el('span', {
        className: 'meta',
        textContent: `${where} · ${t.at.replace('T', ' ').slice(0, 19)} · ${t.duration_ms} ms · ${t.turn_id}`,
      }),
    );
    a.dataset.turn = t.turn_id;
    if (t.session_id) a.dataset.session = t.session_id;
    a.addEventListener('click', () => {
      followLatest = false;
      showTurn(t.turn_id);
    });
    list.append(el('li', {}, a));
  }
  $('turns-page').textContent = total === 0 ? '' : `${turnOffset + 1}–${turnOffset + turns.length} of ${total}`;
  $<HTMLButtonElement>('turns-prev').disabled = turnOffset === 0;
  $<HTMLButtonElement>('turns-next').disabled = turnOffset + turns.length >= total;
  return turns;
}
let filterTimer: number | undefined;
$('turn-filters').addEventListener('input', () => {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => {
    turnOffset = 0;
    loadSessions().catch(report('sessions'));
  }, 200);
});
$('turn-filters').addEventListener('submit', (event) => event.preventDefault());
$('turns-prev').addEventListener('click', () => {
  turnOffset = Math.max(0, turnOffset - PAGE);
  loadSessions().catch(report('sessions'));
});
$('turns-next').addEventListener('click', () => {
  turnOffset += PAGE;
  loadSessions().catch(report('sessions'));
});

const KIND = (hook: string): string => (/tool_call|tool_result/.test(hook) ? 'tool' : /approv/.test(hook) ? 'approval' : '');
/** The colour of a decision: blocks and errors in red, skipped calls grey. */
const TONE = (decision: string): string =>
  /^block/.test(decision)
    ? 'block'
    : /^(error|undelivered)/.test(decision)
      ? 'error'
      : /^skipped/.test(decision)
        ? 'skipped'
        : '';

/** JSON text pretty-printed when it parses (a cut one is shown as it is). */
function pretty(text: string | undefined | null): string {
  if (text === undefined || text === null) return '(not recorded)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A folded block: the first line as the summary, the whole text inside. */
function folded(label: string, text: string | undefined): HTMLDetailsElement {
  const body = pretty(text);
  return el(
    'details',
    {},
    el('summary', { textContent: `${label}: ${body.replace(/\s+/g, ' ').slice(0, 80)}${body.length > 80 ? '…' : ''}` }),
    el('pre', { className: 'json', textContent: body }),
  );
}

/** Per hook (and callback) in this turn: how many runs, p50 and p95 of their durations. */
function showStats(records: HookRecord[]): void {
  showHookStats('hook-stats', 'Per hook in this turn', hookRunStats(records));
}

/** Where each transform hook's input text is in its kwargs: its result replaces that text. */
const TRANSFORM_INPUT: Record<string, string> = {
  transform_tool_result: 'result',
  transform_terminal_output: 'output',
  transform_llm_output: 'response_text',
};

function parsedJson(text: string | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A property of parsed JSON, when it is an object (as `value?.[key]` reads it). */
function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Line diff (longest common subsequence; each side capped at 400 lines): [' ' | '-' | '+', line][]. */
function lineDiff(before: string, after: string): [' ' | '-' | '+', string][] {
  const a = before.split('\n').slice(0, 400);
  const b = after.split('\n').slice(0, 400);
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const out: [' ' | '-' | '+', string][] = [];
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push([' ', a[i]!]);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) {
      out.push(['+', b[j]!]);
      j++;
    } else {
      out.push(['-', a[i]!]);
      i++;
    }
  }
  return out;
}

/** A transform's before/after as a line diff, or why there is none; null for other hooks. */
function transformDiff(r: HookRecord): HTMLElement | null {
  const field = TRANSFORM_INPUT[r.hook];
  if (!field) return null;
  const before = member(parsedJson(r.kwargs), field);
  const after = parsedJson(r.result);
  if (typeof before !== 'string')
    return el('p', { className: 'muted', textContent: 'the input text was not recorded (kwargs cut)' });
  if (typeof after !== 'string')
    return el('p', { className: 'muted', textContent: 'no replacement: the text went on as it was' });
  if (after === before) return el('p', { className: 'muted', textContent: 'returned the text unchanged' });
  const box = el('pre', { className: 'diff' });
  for (const [mark, line] of lineDiff(before, after))
    box.append(el('span', { className: mark === '+' ? 'ins' : mark === '-' ? 'del' : '', textContent: `${mark} ${line}\n` }));
  return el('div', {}, el('b', { textContent: `before → after (${field})` }), box);
}

/** The user message the model got: the words, then each pre_llm_call context, as the turn joins them (§1.9). */
function showPrompt(records: HookRecord[]): void {
  const box = $('turn-prompt');
  box.replaceChildren();
  const calls = records.filter((r) => r.hook === 'pre_llm_call');
  if (calls.length === 0) return;
  const words = member(parsedJson(calls[0]!.kwargs), 'user_message');
  const added: [HookRecord, string][] = [];
  for (const r of calls) {
    const result = parsedJson(r.result);
    const context = typeof result === 'string' ? result : member(result, 'context');
    if (typeof context === 'string' && context.trim() !== '') added.push([r, context]);
    else if (context && typeof context === 'object') added.push([r, JSON.stringify(context)]);
  }
  const prompt = el('pre', { className: 'json prompt' });
  prompt.append(el('span', { textContent: typeof words === 'string' ? words : '(the user message was not recorded)' }));
  for (const [r, context] of added)
    prompt.append(
      el('span', {
        className: 'ins',
        title: `added by ${r.source} ${r.plugin ? `${r.plugin}: ` : ''}${r.callback}`,
        textContent: `\n\n${context}`,
      }),
    );
  box.append(
    el('h2', { textContent: 'The prompt the model got' }),
    el('p', {
      className: 'muted',
      textContent:
        added.length === 0
          ? 'no context hook added anything'
          : `${added.length} context block(s) added (highlighted; hover for the hook)`,
    }),
    prompt,
  );
}

/** Bumped by every showTurn: an answer that comes back after a newer click is not drawn over it. */
let turnShown = 0;

async function showTurn(turnId: string): Promise<void> {
  const shown = ++turnShown;
  selectedTurn = turnId;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#sessions a'))
    a.className = a.dataset.turn === turnId ? 'sel' : '';
  $('turn-id').textContent = turnId;
  if (!AWS) {
    $<HTMLButtonElement>('replay').disabled = false;
    $('replay-result').replaceChildren();
    $('replay-status').textContent = '';
  }
  // Observer-side records are written when their event ran, after the turn's own: time order.
  const records = (await getJson<HookRecord[]>(`turns/${encodeURIComponent(turnId)}`)).sort((a, b) => a.at.localeCompare(b.at));
  if (shown !== turnShown) return;
  const body = $<HTMLTableElement>('timeline').tBodies[0]!;
  body.replaceChildren();
  const starts = records.map((r) => Date.parse(r.at));
  const t0 = Math.min(...starts);
  const span = Math.max(1, ...records.map((r, i) => starts[i]! - t0 + r.duration_ms));
  records.forEach((r, i) => {
    const tone = TONE(r.decision);
    const callback = r.source === '-' ? '-' : (r.plugin ? `${r.plugin}: ` : '') + r.callback;
    const bar = el('div', { className: `bar ${tone}` });
    bar.style.marginLeft = `${(((starts[i]! - t0) / span) * 100).toFixed(1)}%`;
    bar.style.width = `${((r.duration_ms / span) * 100).toFixed(1)}%`;
    const shell = r.exit_code !== undefined;
    const failed = shell && r.exit_code !== 0;
    const decision = el('td', {
      textContent: r.decision + (shell ? ` · exit ${r.exit_code === null ? 'none (timeout or no start)' : r.exit_code}` : ''),
    });
    if (shell && r.stderr)
      decision.append(
        el('div', { className: `stderr${failed ? ' bad' : ' muted'}`, textContent: `stderr: ${r.stderr.slice(0, 300)}` }),
      );
    const row = el(
      'tr',
      { className: [KIND(r.hook), tone || (failed ? 'error' : '')].join(' ').trim() },
      el('td', { textContent: r.at.slice(11, 23) }),
      el('td', { textContent: r.hook }),
      el('td', { textContent: r.source }),
      el('td', { textContent: callback }),
      decision,
      el('td', { textContent: String(r.duration_ms) }),
      el('td', { className: 'waterfall' }, bar),
    );
    row.dataset.hook = r.hook;
    row.dataset.system = r.source;
    row.title = 'click for kwargs and result';
    row.addEventListener('click', () => {
      const next = row.nextElementSibling;
      if (next?.classList.contains('detail')) {
        next.remove();
        return;
      }
      const cell = el('td', { colSpan: 7 });
      if (r.kwargs_cut)
        cell.append(el('p', { className: 'warn', textContent: 'kwargs were cut in the trace: this call is not replayable' }));
      const stored = r.kwargs_history;
      if (stored)
        cell.append(
          el('p', {
            textContent:
              `conversation_history began with the session's ${stored.count} stored message(s) ` +
              `(transcript ${stored.from_seq}–${stored.to_seq}); the trace keeps only the ones after them, and replay reads those back`,
          }),
        );
      const diff = transformDiff(r);
      if (diff) cell.append(diff);
      cell.append(folded('kwargs', r.kwargs), folded('result', r.result));
      if (r.stdout !== undefined) cell.append(folded('stdout', r.stdout || '(empty)'));
      if (r.stderr !== undefined) cell.append(folded('stderr', r.stderr || '(empty)'));
      if (r.outcome && r.outcome !== r.decision) cell.append(el('div', { textContent: `the whole call decided: ${r.outcome}` }));
      for (const d of cell.querySelectorAll('details')) d.open = true;
      row.after(el('tr', { className: 'detail' }, cell));
    });
    body.append(row);
  });
  if (records.length === 0)
    body.append(el('tr', {}, el('td', { colSpan: 7, className: 'muted', textContent: 'no hook calls recorded' })));
  showStats(records);
  showPrompt(records);
  const session = document.querySelector<HTMLAnchorElement>(`#sessions a[data-turn="${CSS.escape(turnId)}"]`)?.dataset.session;
  if (session) showSessionStats(session).catch(() => {});
  showHourStats().catch(() => {});
}

/** Per hook over every turn of the session, from the server (the turn's own table is above it). */
async function showSessionStats(sessionId: string): Promise<void> {
  showHookStats(
    'session-stats',
    'Per hook in this session',
    await getJson<HookRunStats[]>(`sessions/${encodeURIComponent(sessionId)}/hook-stats`),
  );
}

/** Per hook over every turn of the last hour, all chats (the server reads at most 200 turns). */
async function showHourStats(): Promise<void> {
  const { turns, stats } = await getJson<{ turns: number; stats: HookRunStats[] }>('hook-stats/last-hour');
  showHookStats('hour-stats', `Per hook in the last hour (${turns} turn${turns === 1 ? '' : 's'})`, stats);
}

function showHookStats(boxId: string, title: string, rows: readonly HookRunStats[]): void {
  const box = $(boxId);
  box.replaceChildren();
  if (rows.length === 0) return;
  const body = el('tbody');
  for (const r of rows)
    body.append(
      el(
        'tr',
        {},
        el('td', { textContent: `${r.hook} · ${r.callback}` }),
        el('td', { textContent: String(r.runs) }),
        el('td', { textContent: String(r.p50_ms) }),
        el('td', { textContent: String(r.p95_ms) }),
      ),
    );
  box.append(el('h2', { textContent: title }), scrollTable(['hook · callback', 'runs', 'p50 ms', 'p95 ms'], body));
}

/** Replay: the turn's decision-hook calls against the hooks home as it is now (as hookgate replay does). */
async function replaySelected(): Promise<void> {
  if (!selectedTurn) return;
  $('replay-status').textContent = 'replaying…';
  const res = await post(`turns/${encodeURIComponent(selectedTurn)}/replay`, {});
  const out = (await res.json().catch(() => ({}))) as ReplayOutcome;
  if (!res.ok) {
    $('replay-status').textContent = out.error ?? String(res.status);
    return;
  }
  $('replay-status').textContent =
    out.exit_code === 0
      ? 'every call decides as before'
      : `${out.differs} call(s) differ${out.not_replayable ? `, ${out.not_replayable} not replayable` : ''}`;
  $('replay-status').className = out.exit_code === 0 ? 'ok' : 'bad';
  const body = el('tbody');
  for (const c of out.calls) {
    body.append(
      el(
        'tr',
        { className: c.status },
        el('td', { textContent: c.status === 'same' ? '=' : c.status === 'differs' ? '≠' : '?' }),
        el('td', { textContent: c.hook }),
        el('td', { textContent: c.before }),
        el('td', { textContent: c.now ?? '-' }),
        el('td', { textContent: c.note ?? '' }),
      ),
    );
  }
  $('replay-result').replaceChildren(scrollTable(['', 'hook', 'then', 'now', 'difference'], body));
}

async function refreshAfterTurn(): Promise<void> {
  const turns = await loadSessions();
  if (followLatest && turnOffset === 0 && turns.length > 0) await showTurn(turns[0]!.turn_id);
}

async function loadUndelivered(): Promise<void> {
  const box = $('undelivered');
  const replies = await getJson<UndeliveredReply[]>('undelivered');
  box.replaceChildren();
  if (replies.length === 0) box.append(el('span', { className: 'muted', textContent: 'none: every reply reached its chat' }));
  for (const r of replies) {
    const where = `${r.platform} chat ${r.chat_id}${r.thread_id ? ` thread ${r.thread_id}` : ''}`;
    const status = r.delivered_at
      ? el('span', { className: 'ok', textContent: `delivered on retry ${r.delivered_at}` })
      : el('span', { className: 'bad', textContent: `undelivered: ${r.error}` });
    const item = el(
      'div',
      { className: 'reply' },
      el('b', { textContent: where }),
      ' ',
      el('span', {
        className: 'muted',
        textContent: `${r.at} turn ${r.turn_id}${r.retries ? ` · ${r.retries} retr${r.retries === 1 ? 'y' : 'ies'}` : ''}`,
      }),
      el('br'),
      status,
      el('div', { className: 'excerpt', textContent: r.excerpt }),
    );
    item.dataset.id = r.id;
    if (!r.delivered_at) {
      const retry = el('button', { textContent: 'retry' });
      retry.addEventListener('click', async () => {
        retry.disabled = true;
        const res = await post('undelivered/retry', { id: r.id });
        const body = (await res.json().catch(() => ({}))) as ActionAnswer;
        $('undelivered-status').textContent = body.message ?? body.error ?? String(res.status);
        await loadUndelivered();
      });
      item.append(retry);
    }
    box.append(item);
  }
}
$('undelivered-refresh').addEventListener('click', () => loadUndelivered().catch(report('undelivered')));

async function loadDlq(): Promise<void> {
  const box = $('dlq');
  const queues = await getJson<DlqQueue[]>('dlq');
  box.replaceChildren();
  for (const q of queues) {
    const replayAll = el('button', { textContent: 'replay all' });
    replayAll.addEventListener('click', async () => {
      await post('dlq/replay', { queue: q.queue });
      loadDlq();
    });
    box.append(
      el('p', {}, el('b', { textContent: `${q.queue}: ${q.messages.length} message(s) ` }), q.messages.length ? replayAll : ''),
    );
    for (const m of q.messages) {
      const replay = el('button', { textContent: 'replay' });
      replay.addEventListener('click', async () => {
        await post('dlq/replay', { queue: q.queue, id: m.id ?? undefined });
        loadDlq();
      });
      box.append(
        el(
          'div',
          { className: 'muted' },
          `${m.type ?? '?'} ${m.id ?? m.messageId} sent ${m.sentAt ?? '?'} receives ${m.receiveCount} `,
          replay,
        ),
      );
    }
  }
}
$('dlq-refresh').addEventListener('click', () => loadDlq().catch(report('dlq')));

const NOT_RUNNING: Record<string, string> = {
  'not-approved': 'not approved',
  'changed-since-approval': 'script changed since approval',
  disabled: 'disabled (enabled: false)',
};
const DRIFT: Record<string, string> = {
  'content-changed': 'script content changed since approval',
  'mtime-later': 'script modified since approval',
};

async function loadHooks(): Promise<void> {
  const hooks = await getJson<HooksView>('hooks');
  const list = <T>(id: string, items: T[], render: (item: T) => Node | string): void => {
    const box = $(id);
    box.className = items.length ? '' : 'muted';
    box.replaceChildren(...(items.length ? items.map(render) : ['none']));
  };
  // An enabled plugin whose load failed may be a guard: red, not running, and why.
  list('plugins', hooks.plugins, (p) =>
    el('span', {
      className: p.failed ? 'bad' : p.enabled ? 'ok' : 'muted',
      title: p.failed ? `${p.dir}: ${p.failed}` : p.dir,
      textContent: `${p.name + (p.failed ? ` (not running: failed to load: ${p.failed})` : p.enabled ? '' : ' (not enabled)')} `,
    }),
  );
  list('gateway-hooks', hooks.gateway_hooks, (g) =>
    el('span', { title: g.dir, textContent: `${g.name} [${g.events.join(', ')}] ` }),
  );
  for (const line of hooks.skipped) $('gateway-hooks').append(el('br'), el('span', { className: 'warn', textContent: line }));
  $('shell-hooks-note').textContent = AWS
    ? '(the deployed allowlist, read-only here: consent ships with the deployment)'
    : `(${hooks.config_path}; ${hooks.reload.watching ? 'approving or revoking reloads the hooks at once' : 'approving or revoking takes effect when hookgate dev restarts: hot reload is off'})`;
  // Hot reload (dev): off, on, or how the latest reload went (a failed one in red: the previous hooks still run).
  const state = $('reload-state');
  const last = hooks.reload.last;
  if (AWS) state.textContent = '';
  else if (!hooks.reload.watching) {
    state.className = 'muted';
    state.textContent = 'hot reload is off (hookgate dev --no-watch): changes take effect at restart';
  } else if (!last) {
    state.className = 'muted';
    state.textContent = 'hot reload is on: editing a plugin, a gateway hook, config.yaml or the allowlist reloads the hooks';
  } else {
    state.className = last.ok ? 'ok' : 'bad';
    state.textContent = `${last.at.slice(11, 19)} ${last.message}`;
  }
  const body = $<HTMLTableElement>('shell-hooks').tBodies[0]!;
  body.replaceChildren();
  if (hooks.shell_hooks.length === 0)
    body.append(el('tr', {}, el('td', { colSpan: 5, className: 'muted', textContent: 'no shell hooks configured' })));
  for (const h of hooks.shell_hooks) {
    const command = el('td', {}, el('code', { textContent: h.command }));
    if (h.matcher !== null) command.append(' ', el('span', { className: 'muted', textContent: `matcher=${h.matcher}` }));
    if (!h.enabled) command.append(' ', el('span', { className: 'muted', textContent: '(disabled)' }));
    const consent = el('td');
    if (h.approved)
      consent.append(
        el('span', { className: 'ok', textContent: 'allowed' }),
        h.approved_at ? el('span', { className: 'muted', textContent: ` ${h.approved_at}` }) : '',
      );
    else consent.append(el('span', { className: 'bad', textContent: 'not allowlisted' }));
    // A guard that is off says so loudly (not approved, changed since approval, disabled).
    if (h.running === false)
      consent.append(
        el('br'),
        el('span', { className: 'not-running', textContent: 'not running' }),
        el('span', { className: 'bad', textContent: ` ${NOT_RUNNING[h.not_running ?? ''] ?? h.not_running ?? ''}` }),
      );
    const actions = el('td');
    if (!AWS) {
      const actionsFor = h.approved ? (h.drift ? ['approve', 'revoke'] : ['revoke']) : ['approve'];
      for (const action of actionsFor) {
        const button = el('button', { textContent: action });
        button.addEventListener('click', async () => {
          const res = await post(`hooks/${action}`, { event: h.event, command: h.command });
          const out = (await res.json().catch(() => ({}))) as ActionAnswer;
          $('hooks-status').textContent = out.message ?? out.error ?? String(res.status);
          if (res.ok) await loadHooks();
        });
        actions.append(button, ' ');
      }
    }
    const row = el(
      'tr',
      { className: h.running === false ? 'not-running-row' : '' },
      el('td', { textContent: h.event }),
      command,
      consent,
      el('td', {}, h.drift ? el('span', { className: 'warn', textContent: DRIFT[h.drift] ?? h.drift }) : ''),
      actions,
    );
    row.dataset.event = h.event;
    row.dataset.command = h.command;
    body.append(row);
  }
  $('hooks-notices').replaceChildren(...hooks.notices.map((n) => el('p', { className: 'warn', textContent: n })));
}

const report =
  (panel: string) =>
  (error: unknown): void => {
    if (!(error instanceof Unauthorized)) $(panel === 'hooks' ? 'hooks-status' : panel).textContent = String(error);
  };

function loadAll(): void {
  loadSessions().catch(report('sessions'));
  loadUndelivered().catch(report('undelivered'));
  loadDlq().catch(report('dlq'));
  loadHooks().catch(report('hooks'));
}

function showGate(message?: string): void {
  $('panels').hidden = true;
  $('sign-out').hidden = true;
  $('token-gate').hidden = false;
  $('token-status').textContent = message ?? '';
}

if (AWS) {
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = field($<HTMLFormElement>('token-form'), 'token');
    if (!input.value) return;
    sessionStorage.setItem(TOKEN_KEY, input.value);
    input.value = '';
    $('token-gate').hidden = true;
    $('panels').hidden = false;
    $('sign-out').hidden = false;
    loadAll();
  });
  $('sign-out').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showGate();
  });
  $('sessions-refresh').addEventListener('click', () => loadSessions().catch(report('sessions')));
  if (sessionStorage.getItem(TOKEN_KEY)) {
    $('panels').hidden = false;
    $('sign-out').hidden = false;
    loadAll();
  } else showGate();
} else {
  const form = $<HTMLFormElement>('chat-form');
  const say = (kind: string, text: string): void => {
    const log = $('chat-log');
    log.append(el('div', { className: `msg ${kind}`, textContent: text }));
    log.scrollTop = log.scrollHeight;
  };
  // History per chat id, kept in this browser (localStorage): ↑ at the start of the box, ↓ at its end.
  const HISTORY_KEY = 'hookgate-console-history:';
  const history = (): string[] => {
    try {
      return JSON.parse(localStorage.getItem(HISTORY_KEY + field(form, 'chat_id').value) ?? '[]') as string[];
    } catch {
      return [];
    }
  };
  let cursor = -1;
  const box = field(form, 'text');
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    const past = history();
    if (event.key === 'ArrowUp' && box.selectionStart === 0 && box.selectionEnd === 0 && past.length > 0) {
      event.preventDefault();
      cursor = Math.min(past.length - 1, cursor + 1);
      box.value = past[past.length - 1 - cursor]!;
    } else if (event.key === 'ArrowDown' && box.selectionStart === box.value.length && cursor >= 0) {
      event.preventDefault();
      cursor -= 1;
      box.value = cursor >= 0 ? past[past.length - 1 - cursor]! : '';
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data: LocalMessage = {
      chat_id: field(form, 'chat_id').value,
      user_id: field(form, 'user_id').value,
      text: field(form, 'text').value,
    };
    // Attachments travel base64 in the JSON body, as POST /webhooks/local takes them (docs/attachments.md).
    const files = [...(field(form, 'files').files ?? [])];
    if (!data.text && files.length === 0) return;
    if (files.length > 0) {
      data.attachments = await Promise.all(
        files.map(async (file) => {
          const bytes = new Uint8Array(await file.arrayBuffer());
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          return { name: file.name, mime_type: file.type || 'application/octet-stream', data_base64: btoa(binary) };
        }),
      );
    }
    say(
      'user',
      [data.text, ...files.map((file) => `📎 ${file.name} (${file.type || 'unknown type'}, ${file.size} bytes)`)]
        .filter(Boolean)
        .join('\n'),
    );
    if (data.text) {
      const past = history().filter((t) => t !== data.text);
      past.push(data.text);
      localStorage.setItem(HISTORY_KEY + data.chat_id, JSON.stringify(past.slice(-50)));
    }
    cursor = -1;
    box.value = '';
    field(form, 'files').value = '';
    followLatest = true;
    const res = await fetch('/webhooks/local', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
    });
    const body = (await res.json().catch(() => ({}))) as { delivery_id?: string; error?: string };
    $('chat-status').textContent = res.ok
      ? `accepted (${res.status}), delivery ${body.delivery_id ?? ''}`
      : `refused (${res.status}): ${body.error ?? ''}`;
  });
  $('replay').addEventListener('click', () => replaySelected().catch(report('replay-status')));
  const observer = (event: ObserverEvent): void => {
    const box = $('events');
    box.append(
      el('div', {
        textContent: `${event.at.slice(11, 23)} ${event.type}${event.turn_id ? ` ${event.turn_id}` : ''} ${JSON.stringify(event.payload).slice(0, 160)}`,
      }),
    );
    while (box.childElementCount > 200) box.firstChild!.remove();
    box.scrollTop = box.scrollHeight;
  };
  const stream = new EventSource('/console/events');
  stream.addEventListener('open', () => {
    $('stream-state').textContent = 'live';
  });
  stream.addEventListener('error', () => {
    $('stream-state').textContent = 'reconnecting…';
  });
  stream.addEventListener('reply', (e) => {
    const reply = JSON.parse(e.data) as ReplyEvent;
    if (reply.platform === 'local' && reply.chat_id === field(form, 'chat_id').value) say('bot', reply.text);
  });
  stream.addEventListener('turn-done', () => {
    refreshAfterTurn().catch(() => {});
    loadUndelivered().catch(report('undelivered'));
  });
  stream.addEventListener('undelivered', () => {
    loadUndelivered().catch(report('undelivered'));
  });
  stream.addEventListener('reload', (e) => {
    const reload = JSON.parse(e.data) as ReloadEvent;
    // A guard that went off (or on again) has a banner of its own, so the reload's line stays readable.
    if (/^. guard (off|on): /.test(reload.message)) {
      const guard = $('guard-banner');
      guard.textContent = reload.message;
      guard.className = reload.message.includes('guard off') ? 'not-running' : 'ok';
      loadHooks().catch(report('hooks'));
      return;
    }
    const banner = $('reload-banner');
    banner.textContent = reload.ok ? `reloaded: ${reload.message.replace(/^hooks reloaded /, '')}` : reload.message;
    banner.className = reload.ok ? 'ok' : 'bad';
    loadHooks().catch(report('hooks'));
  });
  stream.addEventListener('observer', (e) => observer(JSON.parse(e.data) as ObserverEvent));
  loadAll();
}
