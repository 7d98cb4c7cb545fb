/**
 * The console's browser script, served as `/console/app.js`: hand-written, no framework,
 * no build step. Everything it shows is set through `textContent` (never as HTML), since
 * chat text and hook output are hostile. In dev, mutations send `x-hookgate-console: 1`,
 * which a cross-site form cannot; in AWS (`<body data-mode="aws">`) every API call carries
 * `Authorization: Bearer <token>`, the token asked for once and kept in this tab's
 * sessionStorage (never in a URL or a cookie).
 */
export const CONSOLE_SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
};
const AWS = document.body.dataset.mode === 'aws';
const TOKEN_KEY = 'hookgate-console-token';
let selectedTurn = null;
let followLatest = true;

class Unauthorized extends Error {}

/** Every console API call: the token in AWS, the console header on dev mutations. */
async function api(path, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (AWS) headers.authorization = 'Bearer ' + (sessionStorage.getItem(TOKEN_KEY) ?? '');
  else if ((init.method ?? 'GET') !== 'GET') headers['x-hookgate-console'] = '1';
  const res = await fetch('/console/api/' + path, { ...init, headers, cache: 'no-store' });
  if (res.status === 401 && AWS) {
    sessionStorage.removeItem(TOKEN_KEY);
    showGate('the token was refused');
    throw new Unauthorized('401');
  }
  return res;
}
const getJson = async (path) => (await api(path)).json();
const post = (path, body) => api(path, { method: 'POST', body: JSON.stringify(body) });

async function loadSessions() {
  const sessions = await getJson('sessions');
  const list = $('sessions');
  list.replaceChildren();
  if (sessions.length === 0) list.append(el('li', { className: 'muted', textContent: 'no turns yet' }));
  for (const s of sessions) {
    const turns = el('ol');
    for (const t of s.turns) {
      const a = el('a', { textContent: t.turn_id + ' ', className: t.turn_id === selectedTurn ? 'sel' : '' }, el('span', { className: 'muted', textContent: t.at }));
      a.dataset.turn = t.turn_id;
      a.addEventListener('click', () => { followLatest = false; showTurn(t.turn_id); });
      turns.append(el('li', {}, a));
    }
    list.append(el('li', {}, el('b', { textContent: s.session_id }), turns));
  }
  return sessions;
}

const KIND = (hook) => /tool_call|tool_result/.test(hook) ? 'tool' : /approv/.test(hook) ? 'approval' : '';

async function showTurn(turnId) {
  selectedTurn = turnId;
  for (const a of document.querySelectorAll('#sessions a')) a.className = a.dataset.turn === turnId ? 'sel' : '';
  $('turn-id').textContent = turnId;
  const records = await getJson('turns/' + encodeURIComponent(turnId));
  const body = $('timeline').tBodies[0];
  body.replaceChildren();
  for (const r of records) {
    const row = el('tr', { className: [KIND(r.hook), r.decision.startsWith('error') || r.decision.startsWith('undelivered') ? 'error' : ''].join(' ').trim() },
      el('td', { textContent: r.at.slice(11, 23) }), el('td', { textContent: r.hook }), el('td', { textContent: r.source }),
      el('td', { textContent: r.callback }), el('td', { textContent: r.decision }), el('td', { textContent: String(r.duration_ms) }));
    row.dataset.hook = r.hook;
    row.title = 'click for kwargs and result';
    row.addEventListener('click', () => {
      if (row.nextSibling && row.nextSibling.classList.contains('detail')) return row.nextSibling.remove();
      const text = 'kwargs: ' + (r.kwargs ?? '(not recorded)') + '\nresult: ' + (r.result ?? '(not recorded)');
      row.after(el('tr', { className: 'detail' }, el('td', { colSpan: 6, textContent: text })));
    });
    body.append(row);
  }
  if (records.length === 0) body.append(el('tr', {}, el('td', { colSpan: 6, className: 'muted', textContent: 'no hook calls recorded' })));
}

async function refreshAfterTurn() {
  const sessions = await loadSessions();
  if (followLatest && sessions.length > 0) {
    const turns = sessions[0].turns;
    if (turns.length > 0) await showTurn(turns[turns.length - 1].turn_id);
  }
}

async function loadUndelivered() {
  const box = $('undelivered');
  const replies = await getJson('undelivered');
  box.replaceChildren();
  if (replies.length === 0) box.append(el('span', { className: 'muted', textContent: 'none: every reply reached its chat' }));
  for (const r of replies) {
    const where = r.platform + ' chat ' + r.chat_id + (r.thread_id ? ' thread ' + r.thread_id : '');
    const status = r.delivered_at
      ? el('span', { className: 'ok', textContent: 'delivered on retry ' + r.delivered_at })
      : el('span', { className: 'bad', textContent: 'undelivered: ' + r.error });
    const item = el('div', { className: 'reply' },
      el('b', { textContent: where }), ' ', el('span', { className: 'muted', textContent: r.at + ' turn ' + r.turn_id + (r.retries ? ' · ' + r.retries + ' retr' + (r.retries === 1 ? 'y' : 'ies') : '') }), el('br'),
      status, el('div', { className: 'excerpt', textContent: r.excerpt }));
    item.dataset.id = r.id;
    if (!r.delivered_at) {
      const retry = el('button', { textContent: 'retry' });
      retry.addEventListener('click', async () => {
        retry.disabled = true;
        const res = await post('undelivered/retry', { id: r.id });
        const body = await res.json().catch(() => ({}));
        $('undelivered-status').textContent = body.message ?? body.error ?? String(res.status);
        await loadUndelivered();
      });
      item.append(retry);
    }
    box.append(item);
  }
}
$('undelivered-refresh').addEventListener('click', () => loadUndelivered().catch(report('undelivered')));

async function loadDlq() {
  const box = $('dlq');
  const queues = await getJson('dlq');
  box.replaceChildren();
  for (const q of queues) {
    const replayAll = el('button', { textContent: 'replay all' });
    replayAll.addEventListener('click', async () => { await post('dlq/replay', { queue: q.queue }); loadDlq(); });
    box.append(el('p', {}, el('b', { textContent: q.queue + ': ' + q.messages.length + ' message(s) ' }), q.messages.length ? replayAll : ''));
    for (const m of q.messages) {
      const replay = el('button', { textContent: 'replay' });
      replay.addEventListener('click', async () => { await post('dlq/replay', { queue: q.queue, id: m.id ?? undefined }); loadDlq(); });
      box.append(el('div', { className: 'muted' }, (m.type ?? '?') + ' ' + (m.id ?? m.messageId) + ' sent ' + (m.sentAt ?? '?') + ' receives ' + m.receiveCount + ' ', replay));
    }
  }
}
$('dlq-refresh').addEventListener('click', () => loadDlq().catch(report('dlq')));

const DRIFT = { 'content-changed': 'script content changed since approval', 'mtime-later': 'script modified since approval' };

async function loadHooks() {
  const hooks = await getJson('hooks');
  const list = (id, items, render) => {
    const box = $(id);
    box.className = items.length ? '' : 'muted';
    box.replaceChildren(...(items.length ? items.map(render) : ['none']));
  };
  list('plugins', hooks.plugins, (p) => el('span', { className: p.enabled ? 'ok' : 'muted', title: p.dir, textContent: p.name + (p.enabled ? '' : ' (not enabled)') + ' ' }));
  list('gateway-hooks', hooks.gateway_hooks, (g) => el('span', { title: g.dir, textContent: g.name + ' [' + g.events.join(', ') + '] ' }));
  for (const line of hooks.skipped) $('gateway-hooks').append(el('br'), el('span', { className: 'warn', textContent: line }));
  $('shell-hooks-note').textContent = AWS
    ? '(the deployed allowlist, read-only here: consent ships with the deployment)'
    : '(' + hooks.config_path + '; ' + (hooks.reload.watching ? 'approving or revoking reloads the hooks at once' : 'approving or revoking takes effect when hookgate dev restarts: hot reload is off') + ')';
  // Hot reload (dev): off, on, or how the latest reload went (a failed one in red: the previous hooks still run).
  const state = $('reload-state');
  const last = hooks.reload.last;
  if (AWS) state.textContent = '';
  else if (!hooks.reload.watching) { state.className = 'muted'; state.textContent = 'hot reload is off (hookgate dev --no-watch): changes take effect at restart'; }
  else if (!last) { state.className = 'muted'; state.textContent = 'hot reload is on: editing a plugin, a gateway hook, config.yaml or the allowlist reloads the hooks'; }
  else { state.className = last.ok ? 'ok' : 'bad'; state.textContent = last.at.slice(11, 19) + ' ' + last.message; }
  const body = $('shell-hooks').tBodies[0];
  body.replaceChildren();
  if (hooks.shell_hooks.length === 0) body.append(el('tr', {}, el('td', { colSpan: 5, className: 'muted', textContent: 'no shell hooks configured' })));
  for (const h of hooks.shell_hooks) {
    const command = el('td', {}, el('code', { textContent: h.command }));
    if (h.matcher !== null) command.append(' ', el('span', { className: 'muted', textContent: 'matcher=' + h.matcher }));
    if (!h.enabled) command.append(' ', el('span', { className: 'muted', textContent: '(disabled)' }));
    const consent = h.approved
      ? el('td', {}, el('span', { className: 'ok', textContent: 'allowed' }), h.approved_at ? el('span', { className: 'muted', textContent: ' ' + h.approved_at }) : '')
      : el('td', {}, el('span', { className: 'bad', textContent: 'not allowlisted' }));
    const actions = el('td');
    if (!AWS) {
      const actionsFor = h.approved ? (h.drift ? ['approve', 'revoke'] : ['revoke']) : ['approve'];
      for (const action of actionsFor) {
        const button = el('button', { textContent: action });
        button.addEventListener('click', async () => {
          const res = await post('hooks/' + action, { event: h.event, command: h.command });
          const out = await res.json().catch(() => ({}));
          $('hooks-status').textContent = out.message ?? out.error ?? String(res.status);
          if (res.ok) await loadHooks();
        });
        actions.append(button, ' ');
      }
    }
    const row = el('tr', {}, el('td', { textContent: h.event }), command, consent,
      el('td', {}, h.drift ? el('span', { className: 'warn', textContent: DRIFT[h.drift] ?? h.drift }) : ''), actions);
    row.dataset.event = h.event;
    row.dataset.command = h.command;
    body.append(row);
  }
  $('hooks-notices').replaceChildren(...hooks.notices.map((n) => el('p', { className: 'warn', textContent: n })));
}

const report = (panel) => (error) => { if (!(error instanceof Unauthorized)) $(panel === 'hooks' ? 'hooks-status' : panel).textContent = String(error); };

function loadAll() {
  loadSessions().catch(report('sessions'));
  loadUndelivered().catch(report('undelivered'));
  loadDlq().catch(report('dlq'));
  loadHooks().catch(report('hooks'));
}

function showGate(message) {
  $('panels').hidden = true;
  $('sign-out').hidden = true;
  $('token-gate').hidden = false;
  $('token-status').textContent = message ?? '';
}

if (AWS) {
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('token-form').elements.token;
    if (!input.value) return;
    sessionStorage.setItem(TOKEN_KEY, input.value);
    input.value = '';
    $('token-gate').hidden = true;
    $('panels').hidden = false;
    $('sign-out').hidden = false;
    loadAll();
  });
  $('sign-out').addEventListener('click', () => { sessionStorage.removeItem(TOKEN_KEY); showGate(); });
  $('sessions-refresh').addEventListener('click', () => loadSessions().catch(report('sessions')));
  if (sessionStorage.getItem(TOKEN_KEY)) {
    $('panels').hidden = false;
    $('sign-out').hidden = false;
    loadAll();
  } else showGate();
} else {
  const form = $('chat-form');
  const say = (kind, text) => {
    const log = $('chat-log');
    log.append(el('div', { className: 'msg ' + kind, textContent: text }));
    log.scrollTop = log.scrollHeight;
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = { chat_id: form.elements.chat_id.value, user_id: form.elements.user_id.value, text: form.elements.text.value };
    // Attachments travel base64 in the JSON body, as POST /webhooks/local takes them (docs/attachments.md).
    const files = [...form.elements.files.files];
    if (!data.text && files.length === 0) return;
    if (files.length > 0) {
      data.attachments = await Promise.all(files.map(async (file) => {
        const bytes = new Uint8Array(await file.arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return { name: file.name, mime_type: file.type || 'application/octet-stream', data_base64: btoa(binary) };
      }));
    }
    say('user', [data.text, ...files.map((file) => '📎 ' + file.name + ' (' + (file.type || 'unknown type') + ', ' + file.size + ' bytes)')].filter(Boolean).join('\n'));
    form.elements.text.value = '';
    form.elements.files.value = '';
    followLatest = true;
    const res = await fetch('/webhooks/local', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });
    const body = await res.json().catch(() => ({}));
    $('chat-status').textContent = res.ok ? 'accepted (' + res.status + '), delivery ' + (body.delivery_id ?? '') : 'refused (' + res.status + '): ' + (body.error ?? '');
  });
  const observer = (event) => {
    const box = $('events');
    box.append(el('div', { textContent: event.at.slice(11, 23) + ' ' + event.type + (event.turn_id ? ' ' + event.turn_id : '') + ' ' + JSON.stringify(event.payload).slice(0, 160) }));
    while (box.childElementCount > 200) box.firstChild.remove();
    box.scrollTop = box.scrollHeight;
  };
  const stream = new EventSource('/console/events');
  stream.addEventListener('open', () => { $('stream-state').textContent = 'live'; });
  stream.addEventListener('error', () => { $('stream-state').textContent = 'reconnecting…'; });
  stream.addEventListener('reply', (e) => {
    const reply = JSON.parse(e.data);
    if (reply.platform === 'local' && reply.chat_id === form.elements.chat_id.value) say('bot', reply.text);
  });
  stream.addEventListener('turn-done', () => {
    refreshAfterTurn().catch(() => {});
    loadUndelivered().catch(report('undelivered'));
  });
  stream.addEventListener('undelivered', () => { loadUndelivered().catch(report('undelivered')); });
  stream.addEventListener('reload', (e) => {
    const reload = JSON.parse(e.data);
    const banner = $('reload-banner');
    banner.textContent = reload.ok ? 'reloaded: ' + reload.message.replace(/^hooks reloaded /, '') : reload.message;
    banner.className = reload.ok ? 'ok' : 'bad';
    loadHooks().catch(report('hooks'));
  });
  stream.addEventListener('observer', (e) => observer(JSON.parse(e.data)));
  loadAll();
}
`;
