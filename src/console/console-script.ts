/**
 * The console's browser script, served as `/console/app.js`: hand-written, no framework,
 * no build step. Everything it shows is set through `textContent` (never as HTML), since
 * chat text and hook output are hostile. Mutations send `x-hookgate-console: 1`, which a
 * cross-site form cannot.
 */
export const CONSOLE_SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
};
const post = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hookgate-console': '1' }, body: JSON.stringify(body) });
const form = $('chat-form');
let selectedTurn = null;
let followLatest = true;

function say(kind, text) {
  const log = $('chat-log');
  log.append(el('div', { className: 'msg ' + kind, textContent: text }));
  log.scrollTop = log.scrollHeight;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = Object.fromEntries(new FormData(form));
  if (!data.text) return;
  say('user', data.text);
  form.elements.text.value = '';
  followLatest = true;
  const res = await fetch('/webhooks/local', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });
  const body = await res.json().catch(() => ({}));
  $('chat-status').textContent = res.ok ? 'accepted (' + res.status + '), delivery ' + (body.delivery_id ?? '') : 'refused (' + res.status + '): ' + (body.error ?? '');
});

async function loadSessions() {
  const sessions = await (await fetch('/console/api/sessions')).json();
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
  const records = await (await fetch('/console/api/turns/' + encodeURIComponent(turnId))).json();
  const body = $('timeline').tBodies[0];
  body.replaceChildren();
  for (const r of records) {
    const row = el('tr', { className: [KIND(r.hook), r.decision.startsWith('error') ? 'error' : ''].join(' ').trim() },
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

function observer(event) {
  const box = $('events');
  box.append(el('div', { textContent: event.at.slice(11, 23) + ' ' + event.type + (event.turn_id ? ' ' + event.turn_id : '') + ' ' + JSON.stringify(event.payload).slice(0, 160) }));
  while (box.childElementCount > 200) box.firstChild.remove();
  box.scrollTop = box.scrollHeight;
}

const stream = new EventSource('/console/events');
stream.addEventListener('open', () => { $('stream-state').textContent = 'live'; });
stream.addEventListener('error', () => { $('stream-state').textContent = 'reconnecting…'; });
stream.addEventListener('reply', (e) => {
  const reply = JSON.parse(e.data);
  if (reply.platform === 'local' && reply.chat_id === form.elements.chat_id.value) say('bot', reply.text);
});
stream.addEventListener('turn-done', () => { refreshAfterTurn().catch(() => {}); });
stream.addEventListener('observer', (e) => observer(JSON.parse(e.data)));

async function loadDlq() {
  const box = $('dlq');
  const queues = await (await fetch('/console/api/dlq')).json();
  box.replaceChildren();
  for (const q of queues) {
    const replayAll = el('button', { textContent: 'replay all' });
    replayAll.addEventListener('click', async () => { await post('/console/api/dlq/replay', { queue: q.queue }); loadDlq(); });
    box.append(el('p', {}, el('b', { textContent: q.queue + ': ' + q.messages.length + ' message(s) ' }), q.messages.length ? replayAll : ''));
    for (const m of q.messages) {
      const replay = el('button', { textContent: 'replay' });
      replay.addEventListener('click', async () => { await post('/console/api/dlq/replay', { queue: q.queue, id: m.id ?? undefined }); loadDlq(); });
      box.append(el('div', { className: 'muted' }, (m.type ?? '?') + ' ' + (m.id ?? m.messageId) + ' sent ' + (m.sentAt ?? '?') + ' receives ' + m.receiveCount + ' ', replay));
    }
  }
}
$('dlq-refresh').addEventListener('click', () => loadDlq());

function bindHookButtons() {
  for (const button of document.querySelectorAll('#shell-hooks button')) {
    button.addEventListener('click', async () => {
      const row = button.closest('tr');
      const res = await post('/console/api/hooks/' + button.dataset.action, { event: row.dataset.event, command: row.dataset.command });
      const body = await res.json().catch(() => ({}));
      if (res.ok) await refreshHooks().catch(() => {});
      $('hooks-status').textContent = body.message ?? body.error ?? String(res.status);
    });
  }
}

// The hooks panel as the server renders it now, swapped in place (the chat and the timeline
// stay). DOMParser builds an inert document: nothing in it runs, and the server escaped it.
async function refreshHooks() {
  const page = new DOMParser().parseFromString(await (await fetch('/console/')).text(), 'text/html');
  const fresh = page.getElementById('hooks');
  if (!fresh) return;
  $('hooks').replaceWith(document.adoptNode(fresh));
  bindHookButtons();
}

stream.addEventListener('reload', (e) => {
  const reload = JSON.parse(e.data);
  const banner = $('reload-banner');
  banner.textContent = reload.ok ? 'reloaded: ' + reload.message.replace(/^hooks reloaded /, '') : reload.message;
  banner.className = reload.ok ? 'ok' : 'bad';
  refreshHooks().catch(() => {});
});

bindHookButtons();

loadSessions().catch(() => {});
loadDlq().catch((error) => { $('dlq').textContent = String(error); });
`;
