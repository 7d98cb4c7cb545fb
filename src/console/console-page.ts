import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { HooksStatus } from './console-data.ts';

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#1d232a;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:baseline}
header h1{font-size:16px;margin:0}header small{color:#aab}
main{display:grid;grid-template-columns:minmax(280px,1fr) minmax(360px,2fr);gap:12px;padding:12px}
section{background:#fff;border:1px solid #dde;border-radius:6px;padding:8px 12px;min-width:0}
h2{font-size:14px;margin:4px 0 8px}
#chat-log{height:220px;overflow:auto;border:1px solid #eee;padding:6px;background:#fbfbfd}
.msg{margin:2px 0;white-space:pre-wrap}.msg.user{color:#235}.msg.bot{color:#174}.msg.bot::before{content:"bot: "}.msg.user::before{content:"you: "}
form.row{display:flex;gap:6px;margin-top:6px}form.row input{min-width:0;width:6em}form.row input[name=text]{flex:1;width:auto}
input{font:inherit;padding:3px 5px}button{font:inherit;cursor:pointer}
table{border-collapse:collapse;width:100%;font-size:13px}td,th{border-bottom:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top}
tr.tool td{background:#fff7e0}tr.approval td{background:#f3e8ff}tr.error td{color:#a11}
tr.detail td{background:#f4f6f8;font-family:ui-monospace,monospace;white-space:pre-wrap;font-size:12px}
.sessions li{margin:2px 0}.sessions a{cursor:pointer;color:#15c}.sessions a.sel{font-weight:bold}
#events{height:160px;overflow:auto;font-family:ui-monospace,monospace;font-size:12px}
.ok{color:#174}.bad{color:#a11}.warn{color:#a60}.muted{color:#778}header .ok{color:#8d8}header .bad{color:#f99}
`;

/** `<tr>`s of the shell hooks, with approve / revoke buttons (the script posts them). */
function shellRows(hooks: HooksStatus): HtmlEscapedString | Promise<HtmlEscapedString> {
  if (hooks.shell_hooks.length === 0) return html`<tr><td colspan="5" class="muted">no shell hooks in ${hooks.config_path}</td></tr>`;
  return html`${hooks.shell_hooks.map(
    (h) => html`<tr data-event="${h.event}" data-command="${h.command}">
      <td>${h.event}</td><td><code>${h.command}</code>${h.matcher !== null ? html` <span class="muted">matcher=${h.matcher}</span>` : ''}${h.enabled ? '' : html` <span class="muted">(disabled)</span>`}</td>
      <td>${h.approved ? html`<span class="ok">allowed</span>${h.approved_at ? html` <span class="muted">${h.approved_at}</span>` : ''}` : html`<span class="bad">not allowlisted</span>`}</td>
      <td>${h.drift ? html`<span class="warn">${h.drift === 'content-changed' ? 'script content changed since approval' : 'script modified since approval'}</span>` : ''}</td>
      <td>${h.approved && !h.drift ? html`<button data-action="revoke">revoke</button>` : html`<button data-action="approve">approve</button>`}${h.approved && h.drift ? html` <button data-action="revoke">revoke</button>` : ''}</td>
    </tr>`,
  )}`;
}

/** Hot reload: off, on, or how the latest reload went (a failed one in red: the previous hooks still run). */
function reloadLine(hooks: HooksStatus): HtmlEscapedString | Promise<HtmlEscapedString> {
  const { reload } = hooks;
  if (!reload.watching) return html`<p class="muted" id="reload-state">hot reload is off (hookgate dev --no-watch): changes take effect at restart</p>`;
  if (!reload.last) return html`<p class="muted" id="reload-state">hot reload is on: editing a plugin, a gateway hook, config.yaml or the allowlist reloads the hooks</p>`;
  return html`<p class="${reload.last.ok ? 'ok' : 'bad'}" id="reload-state">${reload.last.at.slice(11, 19)} ${reload.last.message}</p>`;
}

/**
 * The console page, rendered on the server with the hooks panel filled in; `app.js` adds the
 * live parts (chat, event stream, timelines, DLQ) with same-origin fetches.
 *
 * @example
 * return c.html(consolePage({ hooks: await data.hooks(), state: '.hookgate' }));
 */
export function consolePage(view: { hooks: HooksStatus; state?: string }): HtmlEscapedString | Promise<HtmlEscapedString> {
  const { hooks } = view;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hookgate console</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${raw(STYLE)}</style></head>
<body>
<header><h1>hookgate console</h1><small>hooks home ${hooks.home}</small><small>state ${view.state ?? 'in memory'}</small><small id="stream-state">connecting…</small><small id="reload-banner"></small></header>
<main>
<div>
<section id="chat"><h2>Chat (local platform)</h2>
<div id="chat-log" aria-live="polite"></div>
<form class="row" id="chat-form"><input name="chat_id" value="console" aria-label="chat id"><input name="user_id" value="console-user" aria-label="user id"><input name="text" placeholder="Say something…" autocomplete="off" aria-label="message"><button>Send</button></form>
<p class="muted" id="chat-status"></p></section>
<section><h2>Sessions and turns</h2><ul class="sessions" id="sessions"><li class="muted">no turns yet</li></ul></section>
<section><h2>Live observer events</h2><div id="events"></div></section>
</div>
<div>
<section><h2>Turn timeline <span id="turn-id" class="muted"></span></h2>
<table id="timeline"><thead><tr><th>time</th><th>hook</th><th>system</th><th>callback</th><th>decision</th><th>ms</th></tr></thead><tbody><tr><td colspan="6" class="muted">pick a turn, or send a message</td></tr></tbody></table></section>
<section id="hooks"><h2>Hook systems</h2>
${reloadLine(hooks)}
<p><b>Plugins</b>: ${hooks.plugins.length === 0 ? html`<span class="muted">none</span>` : hooks.plugins.map((p) => html`<span class="${p.enabled ? 'ok' : 'muted'}" title="${p.dir}">${p.name}${p.enabled ? '' : ' (not enabled)'}</span> `)}</p>
<p><b>Gateway hooks</b>: ${hooks.gateway_hooks.length === 0 ? html`<span class="muted">none</span>` : hooks.gateway_hooks.map((g) => html`<span title="${g.dir}">${g.name} [${g.events.join(', ')}]</span> `)}${hooks.skipped.map((line) => html`<br><span class="warn">${line}</span>`)}</p>
<p><b>Shell hooks</b> <span class="muted">(${hooks.config_path}; ${hooks.reload.watching ? 'approving or revoking reloads the hooks at once' : 'approving or revoking takes effect when hookgate dev restarts: hot reload is off'})</span></p>
<table id="shell-hooks"><thead><tr><th>event</th><th>command</th><th>consent</th><th>fingerprint</th><th></th></tr></thead><tbody>${shellRows(hooks)}</tbody></table>
${hooks.notices.map((n) => html`<p class="warn">${n}</p>`)}
<p class="muted" id="hooks-status"></p></section>
<section><h2>Dead-letter queues</h2><div id="dlq"><span class="muted">loading…</span></div><button id="dlq-refresh">refresh</button></section>
</div>
</main>
<script src="/console/app.js" type="module"></script>
</body></html>`;
}
