import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#1d232a;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:baseline}
header h1{font-size:16px;margin:0}header small{color:#aab;overflow-wrap:anywhere}
main{display:grid;grid-template-columns:minmax(280px,1fr) minmax(360px,2fr);gap:12px;padding:12px}
@media (max-width:900px){main{grid-template-columns:minmax(0,1fr);padding:6px}header{flex-wrap:wrap;gap:4px 12px}}
.scroll{overflow-x:auto;max-width:100%}
section{background:#fff;border:1px solid #dde;border-radius:6px;padding:8px 12px;min-width:0}
h2{font-size:14px;margin:4px 0 8px}
#chat-log{height:220px;overflow:auto;border:1px solid #eee;padding:6px;background:#fbfbfd}
.msg{margin:2px 0;white-space:pre-wrap}.msg.user{color:#235}.msg.bot{color:#174}.msg.bot::before{content:"bot: "}.msg.user::before{content:"you: "}
form.row{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}form.row input{min-width:0;width:6em}
form.row textarea{flex:1 1 100%;min-width:0;box-sizing:border-box;font:inherit;resize:vertical}
#turn-filters{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:6px}#turn-filters input,#turn-filters select{min-width:0;width:7.5em;font:inherit}#turn-filters input[name=text]{flex:1;width:auto}
.turns{list-style:none;padding:0;margin:0}.turns li{border-bottom:1px solid #eee;padding:3px 0}.turns a{cursor:pointer;display:block;color:inherit;text-decoration:none}.turns a.sel{background:#eef3ff}
.turns .first{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.turns .meta{font-size:12px;color:#778}
.badge{display:inline-block;font-size:11px;padding:0 5px;border-radius:8px;margin-right:4px;background:#eee}.badge.block,.badge.error{background:#fdd;color:#a11}.badge.approval{background:#f3e8ff;color:#617}
.bar{height:8px;background:#8ab;border-radius:2px;min-width:2px}.bar.block,.bar.error{background:#d55}.waterfall{position:relative;width:120px}
tr.block td,tr.error td{color:#a11}tr.block td:nth-child(5),tr.error td:nth-child(5){font-weight:bold}tr.skipped td{color:#889;font-style:italic}
.not-running{color:#fff;background:#c22;border-radius:3px;padding:0 4px;font-weight:bold}
#replay-result .differs{color:#a11;font-weight:bold}#replay-result .same{color:#174}#replay-result .not-replayable{color:#a60}
pre.json{margin:2px 0;white-space:pre-wrap;word-break:break-word}
pre.diff{margin:2px 0;white-space:pre-wrap;word-break:break-word;font-size:12px}.ins{background:#dfd;color:#063}.del{background:#fdd;color:#a11;text-decoration:line-through}
input{font:inherit;padding:3px 5px}button{font:inherit;cursor:pointer}
table{border-collapse:collapse;width:100%;font-size:13px}td,th{border-bottom:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top}
tr.tool td{background:#fff7e0}tr.approval td{background:#f3e8ff}
tr.detail td{background:#f4f6f8;font-family:ui-monospace,monospace;white-space:pre-wrap;font-size:12px}
.sessions li{margin:2px 0}.sessions a{cursor:pointer;color:#15c}.sessions a.sel{font-weight:bold}
#events{height:160px;overflow:auto;font-family:ui-monospace,monospace;font-size:12px}
.ok{color:#174}.bad{color:#a11}.warn{color:#a60}.muted{color:#778}header .ok{color:#8d8}header .bad{color:#f99}
#undelivered .reply{border-bottom:1px solid #eee;padding:4px 0}#undelivered .excerpt{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:12px}
#token-gate{max-width:460px;margin:48px auto}#token-gate input{width:100%;box-sizing:border-box}
[hidden]{display:none!important}
`;

/** What the page is rendered for: `dev` (loopback, live chat and events) or `aws` (token, no live parts). */
export type ConsoleMode = 'dev' | 'aws';

/**
 * The console page. It carries no data: `app.js` fills every panel from the JSON API (in
 * AWS, after the operator typed the token), so the page itself can be served to anyone.
 * In `aws` mode the chat box and the live event stream are left out (no in-process hub
 * across Lambdas), and the page says so.
 *
 * @example
 * return c.html(consolePage({ mode: 'dev', state: '.hookgate' }));
 */
export function consolePage(view: {
  mode: ConsoleMode;
  state?: string;
  home?: string;
}): HtmlEscapedString | Promise<HtmlEscapedString> {
  const dev = view.mode === 'dev';
  const header = dev
    ? html`<small>hooks home ${view.home ?? ''}</small><small>state ${view.state ?? 'in memory'}</small><small id="stream-state">connecting…</small><small id="reload-banner"></small><small id="guard-banner"></small>`
    : html`<small>deployed (AWS)</small><small id="stream-state">no live stream in AWS: panels refresh when you ask</small><button id="sign-out" hidden>forget token</button>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hookgate console</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${raw(STYLE)}</style></head>
<body data-mode="${view.mode}">
<header><h1>hookgate console</h1>${header}</header>
${
  dev
    ? ''
    : html`<section id="token-gate" hidden><h2>API token</h2>
<p>This console reads the deployment with the <code>/v1</code> bearer token (<code>HOOKGATE_API_TOKEN</code>). It is kept in this tab's session storage only, and sent as an <code>Authorization</code> header.</p>
<form id="token-form"><input type="password" name="token" autocomplete="off" aria-label="API token" placeholder="HOOKGATE_API_TOKEN"><p><button>Open the console</button> <span id="token-status" class="bad"></span></p></form></section>`
}
<main id="panels"${dev ? '' : raw(' hidden')}>
<div>
${
  dev
    ? html`<section id="chat"><h2>Chat (local platform)</h2>
<div id="chat-log" aria-live="polite"></div>
<form class="row" id="chat-form"><input name="chat_id" value="console" aria-label="chat id"><input name="user_id" value="console-user" aria-label="user id"><input type="file" name="files" multiple aria-label="attach files"><button>Send</button><textarea name="text" rows="3" placeholder="Say something… (Enter sends, Shift+Enter a new line, ↑/↓ history)" autocomplete="off" aria-label="message"></textarea></form>
<p class="muted" id="chat-status"></p></section>`
    : html`<section><h2>Chat and live events</h2><p class="muted">The chat box and the live event stream are <code>hookgate dev</code> only: in AWS each request may reach another Lambda instance, so there is no in-process stream to follow. Use <b>refresh</b> on each panel.</p></section>`
}
<section><h2>Turns</h2>
<form id="turn-filters"><input name="chat" placeholder="chat" aria-label="filter: chat"><input name="user" placeholder="user" aria-label="filter: user"><input name="hook" placeholder="hook / plugin" aria-label="filter: hook"><select name="decision" aria-label="filter: decision"><option value="">any decision</option><option>block</option><option>allow</option><option>error</option><option>context</option><option>replaced</option></select><label><input type="checkbox" name="error" value="1" style="width:auto"> errors</label><input name="text" placeholder="text" aria-label="filter: text"></form>
<ul class="turns" id="sessions"><li class="muted">no turns yet</li></ul>
<p><button id="turns-prev" disabled>newer</button> <button id="turns-next" disabled>older</button> <span class="muted" id="turns-page"></span>${dev ? '' : html` <button id="sessions-refresh">refresh</button>`}</p></section>
${dev ? html`<section><h2>Live observer events</h2><div id="events"></div></section>` : ''}
<section><h2>Undelivered replies</h2><div id="undelivered"><span class="muted">loading…</span></div><button id="undelivered-refresh">refresh</button> <span class="muted" id="undelivered-status"></span></section>
</div>
<div>
<section><h2>Turn timeline <span id="turn-id" class="muted"></span></h2>
${dev ? html`<p><button id="replay" disabled title="re-run this turn's decision-hook calls against the hooks as they are now (hookgate replay)">replay against the hooks now</button> <span id="replay-status" class="muted"></span></p><div id="replay-result"></div>` : ''}
<div class="scroll"><table id="timeline"><thead><tr><th>time</th><th>hook</th><th>system</th><th>callback</th><th>decision</th><th>ms</th><th>waterfall</th></tr></thead><tbody><tr><td colspan="7" class="muted">pick a turn${dev ? ', or send a message' : ''}</td></tr></tbody></table></div>
<div id="turn-prompt"></div>
<div id="hook-stats"></div>
<div id="session-stats"></div>
<div id="hour-stats"></div></section>
<section id="hooks"><h2>Hook systems</h2>
<p class="muted" id="reload-state"></p>
<p><b>Plugins</b>: <span id="plugins" class="muted">loading…</span></p>
<p><b>Gateway hooks</b>: <span id="gateway-hooks" class="muted">loading…</span></p>
<p><b>Shell hooks</b> <span class="muted" id="shell-hooks-note"></span></p>
<div class="scroll"><table id="shell-hooks"><thead><tr><th>event</th><th>command</th><th>consent</th><th>fingerprint</th><th></th></tr></thead><tbody></tbody></table></div>
<div id="hooks-notices"></div>
<p class="muted" id="hooks-status"></p></section>
<section><h2>Dead-letter queues</h2><div id="dlq"><span class="muted">loading…</span></div><button id="dlq-refresh">refresh</button></section>
</div>
</main>
<script src="/console/app.js" type="module"></script>
</body></html>`;
}
