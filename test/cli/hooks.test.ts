import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VALID_HOOK_NAMES_TEXT } from '../../src/hooks/catalogue.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { enable, tempHome } from '../hooks/support/temp-home.ts';

const BIN = resolve(import.meta.dirname, '../../bin/hookgate.js');
const root = mkdtempSync(join(tmpdir(), 'hookgate-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cleanEnv = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '' };
  for (const k of ['HOOKGATE_ACCEPT_HOOKS', 'HERMES_ACCEPT_HOOKS', 'HOOKGATE_HOME', 'HERMES_HOME']) delete env[k];
  return env;
};

type Result = { code: number; stdout: string; stderr: string };

/** Runs `hookgate` in-process (output captured), from `root` as cwd. */
const hookgate = (args: string[]): Promise<Result> => runCliInProcess(args, { cwd: root });

/** Runs the real binary (`node bin/hookgate.js …`) in a child process. */
function hookgateBin(args: string[], cwd = root): Promise<Result> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(), timeout: 100_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      done({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

/** A fresh hooks home with scripts and a config.yaml whose text can use `$H` for the home. */
function home(scripts: Record<string, string>, config: string): string {
  const dir = mkdtempSync(join(root, 'home-'));
  for (const [name, body] of Object.entries(scripts)) {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body.replaceAll('$H', dir)}\n`);
    chmodSync(path, 0o755);
  }
  writeFileSync(join(dir, 'config.yaml'), config.replaceAll('$H', dir));
  return dir;
}

// The real binary costs seconds per start here (the CLI loads every command's modules), so it
// runs only what needs a real process: exit statuses, --accept-hooks anywhere, and the TTY.
describe.concurrent('hookgate hooks: the real binary', () => {
  // The binary runs under a global tsx loader, through which Node 20 handed such a file to require() and failed.
  it('loads a .js plugin and a .js gateway handler written with export, with no package.json above them', {
    timeout: 120_000,
  }, async () => {
    const esm = await tempHome({
      'config.yaml': enable('esm'),
      'plugins/esm/plugin.yaml': 'name: esm\n',
      'plugins/esm/index.js':
        "export function register(ctx) { ctx.register_hook('pre_llm_call', function note() { return { context: 'from js' }; }); }\n",
      'hooks/esm/HOOK.yaml': 'events: ["agent:start"]\n',
      'hooks/esm/handler.js': 'export function handle(type) { return `handled ${type}`; }\n',
    });
    const h = esm.path;
    const plugin = await hookgateBin(['hooks', 'test', 'pre_llm_call', '--home', h]);
    expect(plugin.stdout + plugin.stderr).toContain('returned: {"context":"from js"}');
    const gateway = await hookgateBin(['hooks', 'test', 'agent:start', '--home', h]);
    expect(gateway.stdout + gateway.stderr).toContain('returned: "handled agent:start"');
    await esm.remove();
  });

  it('unknown sub-command fails, and --accept-hooks is accepted at any position', { timeout: 120_000 }, async () => {
    const h = home({}, 'hooks: {}\n');
    const unknown = await hookgateBin(['--accept-hooks', 'hooks', 'frobnicate', '--home', h]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("'frobnicate'");
    const list = await hookgateBin(['hooks', '--accept-hooks', 'list', '--home', h, '--accept-hooks']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`No shell hooks configured in ${join(h, 'config.yaml')}.`);
  });

  it('test --expect sets the process exit status: 0 met, 1 not met, 2 invalid', { timeout: 120_000 }, async () => {
    const h = home(
      { 'b.sh': 'cat >/dev/null; echo "{\\"action\\": \\"block\\", \\"message\\": \\"nope\\"}"' },
      'hooks:\n  pre_tool_call:\n    - command: $H/b.sh\n',
    );
    const [met, notMet, invalid] = await Promise.all([
      hookgateBin(['hooks', 'test', 'pre_tool_call', '--expect', 'block', '--home', h]),
      hookgateBin(['hooks', 'test', 'pre_tool_call', '--expect', 'allow', '--home', h]),
      hookgateBin(['hooks', 'test', 'no_such_event', '--expect', 'allow', '--home', h]),
    ]);
    expect(met.stdout).toContain('parsed (Hermes wire shape): {"action": "block", "message": "nope"}');
    expect([met.code, notMet.code, invalid.code]).toEqual([0, 1, 2]);
  });
});

describe('hookgate hooks (in-process runCli, temp hooks home)', () => {
  it('test and doctor give the hooks their home as HOOKGATE_HOME, as dev does (their logs go there)', async () => {
    const before = process.env.HOOKGATE_HOME;
    const h = home(
      { 'where.sh': 'cat >/dev/null; printf "%s" "${HOOKGATE_HOME}" > "$H/home-seen"' },
      'hooks:\n  on_session_start:\n    - command: $H/where.sh\n',
    );
    await hookgate(['hooks', 'test', 'on_session_start', '--home', h]);
    expect(readFileSync(join(h, 'home-seen'), 'utf8')).toBe(h);
    // In this process (runCli in-process) it is given back as it was.
    expect(process.env.HOOKGATE_HOME).toBe(before);
  });

  it('usage: no sub-command prints a usage line; unknown sub-command and missing args fail', async () => {
    const h = home({}, '');
    const bare = await hookgate(['hooks', '--home', h]);
    expect(bare.code).toBe(0);
    // hook-semantics §4 (a quoted fragment, verbatim by §0.5), then hookgate's own sub-commands.
    expect(bare.stdout).toContain('usage: hookgate hooks {list|test|revoke|doctor|approve|import} ...');
    expect(bare.stdout).toContain('hookgate hooks --help');
    const unknown = await hookgate(['hooks', 'frobnicate', '--home', h]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("'frobnicate'");
    expect((await hookgate(['hooks', 'test', '--home', h])).code).not.toBe(0);
    expect((await hookgate(['hooks', 'revoke', '--home', h])).code).not.toBe(0);
    const help = await hookgate(['hooks', '--help']);
    expect(help.stdout).toContain('Exit status:');
    expect(help.stdout).toContain('--home <dir>');
  });

  it('list: no entries names the config file', async () => {
    const h = home({}, 'hooks: {}\n');
    for (const args of [
      ['hooks', 'list', '--home', h],
      ['hooks', 'ls', '--home', h],
    ]) {
      const r = await hookgate(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`No shell hooks configured in ${join(h, 'config.yaml')}.`);
      expect(r.stdout).toContain('hookgate hooks --help');
    }
  });

  it("list: the enabled plugins' slash commands, with args hint, plugin and description", async () => {
    const h = home({}, 'plugins:\n  enabled: [stats]\n');
    mkdirSync(join(h, 'plugins', 'stats'), { recursive: true });
    writeFileSync(join(h, 'plugins', 'stats', 'plugin.yaml'), 'name: stats\n');
    writeFileSync(
      join(h, 'plugins', 'stats', 'index.mjs'),
      "export function register(ctx) { ctx.register_command('metrics', () => { throw new Error('never run'); }, 'hook calls of this session', 'dias:N'); ctx.register_command('help', () => ''); }\n",
    );
    const r = await hookgate(['hooks', 'list', '--home', h]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No shell hooks configured');
    expect(r.stdout).toContain('1 plugin command(s):');
    expect(r.stdout).toContain('  /metrics dias:N  plugin=stats  — hook calls of this session');
    expect(r.stderr).toContain("plugin stats: register_command('help') uses the name of the built-in command /help");
  });

  it('list: the three systems — plugins with their hooks and commands, gateway hooks with events, shell hooks', async () => {
    const h = home({}, 'plugins:\n  enabled: [audit]\nhooks:\n  post_tool_call:\n    - command: /bin/true\n');
    for (const dir of ['audit', 'idle']) {
      mkdirSync(join(h, 'plugins', dir), { recursive: true });
      writeFileSync(join(h, 'plugins', dir, 'plugin.yaml'), `name: ${dir}\n`);
    }
    writeFileSync(
      join(h, 'plugins', 'audit', 'index.mjs'),
      "export function register(ctx) { ctx.register_hook('pre_tool_call', function gate() {}); ctx.register_hook('pre_tool_call', function log() {}); ctx.register_hook('post_llm_call', function tally() {}); ctx.register_command('audit', () => 'ok'); }\n",
    );
    writeFileSync(
      join(h, 'plugins', 'idle', 'index.mjs'),
      "export function register() { throw new Error('a disabled plugin must not load'); }\n",
    );
    mkdirSync(join(h, 'hooks', 'notify'), { recursive: true });
    writeFileSync(join(h, 'hooks', 'notify', 'HOOK.yaml'), 'name: notify\nevents: [agent:end, command:*]\n');
    writeFileSync(join(h, 'hooks', 'notify', 'handler.mjs'), "throw new Error('listing must not import handlers');\n");
    mkdirSync(join(h, 'hooks', 'empty'), { recursive: true });
    writeFileSync(join(h, 'hooks', 'empty', 'HOOK.yaml'), 'name: empty\n');
    writeFileSync(join(h, 'hooks', 'empty', 'handler.mjs'), 'export function handle() {}\n');
    const r = await hookgate(['hooks', 'list', '--home', h]);
    expect(r.code).toBe(0);
    // The shell-hook section keeps its fixed format, first.
    expect(
      r.stdout.startsWith(
        `1 shell hook(s) configured in ${join(h, 'config.yaml')}:\n\n[post_tool_call]\n  /bin/true  timeout=60s  ✗ not allowlisted\n`,
      ),
    ).toBe(true);
    expect(r.stdout).toContain(
      `2 plugin(s) in ${join(h, 'plugins')}:\n\n  audit  ✓ enabled\n      pre_tool_call: gate, log\n      post_llm_call: tally\n      commands: /audit\n  idle  ✗ not enabled`,
    );
    expect(r.stdout).toContain(
      `1 gateway hook(s) in ${join(h, 'hooks')}:\n\n  ⚠ [hooks] Skipping empty: no events declared\n  notify  events: agent:end, command:*\n`,
    );
    expect(r.stderr).not.toContain('must not');
  });

  it('config warnings reach a pipe as readable lines: the message verbatim, not escaped again as JSON', async () => {
    const h = home({}, `hooks:\n  on_session_start:\n    - {command: /bin/true, matcher: '^foo\\d"x'}\n`);
    const r = await hookgate(['hooks', 'list', '--home', h]);
    expect(r.code).toBe(0);
    // The message as the parser words it (the raw value, §3.2), with no layer of escaping.
    expect(r.stderr).toContain(`hooks.on_session_start[0].matcher='^foo\\d"x' will be ignored at runtime`);
    expect(r.stderr).not.toMatch(/^\{"level"/m);
  });

  it('list: a plugin that fails to load says why, and one in plugins.disabled says it is disabled', async () => {
    const h = home({}, 'plugins:\n  enabled: [broken, muted]\n  disabled: [muted]\n');
    for (const dir of ['broken', 'muted']) {
      mkdirSync(join(h, 'plugins', dir), { recursive: true });
      writeFileSync(join(h, 'plugins', dir, 'plugin.yaml'), `name: ${dir}\n`);
    }
    writeFileSync(
      join(h, 'plugins', 'broken', 'index.mjs'),
      "export function register() { throw new Error('no database configured'); }\n",
    );
    writeFileSync(
      join(h, 'plugins', 'muted', 'index.mjs'),
      "export function register() { throw new Error('a disabled plugin must not load'); }\n",
    );
    const r = await hookgate(['hooks', 'list', '--home', h]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ {2}broken {2}✗ not running: failed to load: .*no database configured/);
    expect(r.stdout).not.toContain('broken  ✓ enabled');
    expect(r.stdout).toContain('  muted  ✗ disabled (named in plugins.disabled in config.yaml, which wins over plugins.enabled)');
    expect(r.stderr + r.stdout).not.toContain('must not load');
  });

  it('list: grouped by sorted event, config order within, matcher, timeout, consent, approval, drift; warnings on stderr', async () => {
    const h = home(
      { 'a.sh': 'echo a', 'b.sh': 'echo b', 'c.sh': 'echo c' },
      `hooks:
  pre_tool_call:
    - {command: $H/b.sh, matcher: "terminal|file", timeout: 30}
    - {command: $H/a.sh}
  on_session_start:
    - {command: $H/c.sh, enabled: false}
  post_llm_call:
    - {command: $H/a.sh}
  pre_tools_call:
    - {command: $H/a.sh}
`,
    );
    expect((await hookgate(['hooks', 'approve', 'pre_tool_call', `${h}/b.sh`, '--yes', '--home', h])).code).toBe(0);
    expect((await hookgate(['hooks', 'approve', 'post_llm_call', `${h}/a.sh`, '--yes', '--home', h])).code).toBe(0);
    writeFileSync(join(h, 'a.sh'), '#!/bin/sh\necho changed\n');
    const r = await hookgate(['hooks', 'list', '--home', h]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("did you mean 'pre_tool_call'?");
    expect(r.stdout).not.toContain('\x1b[');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toContain('4 shell hook(s)');
    expect(lines[1]).toBe('');
    const groups = lines.filter((l) => l.startsWith('['));
    expect(groups).toEqual(['[on_session_start]', '[post_llm_call]', '[pre_tool_call]']);
    const pre = lines.slice(lines.indexOf('[pre_tool_call]'));
    expect(pre[1]).toBe(`  ${h}/b.sh  matcher='terminal|file'  timeout=30s  ✓ allowed`);
    expect(pre[2]).toMatch(/^ {6}approved_at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    expect(pre[3]).toBe(`  ${h}/a.sh  timeout=60s  ✗ not allowlisted`);
    const post = lines.slice(lines.indexOf('[post_llm_call]'));
    expect(post[1]).toContain('✓ allowed');
    expect(post[3]).toContain('⚠ script content changed since approval');
    // A guard that is off says so, after the §4.1 lines; the approve hint runs as printed.
    expect(post[4]).toBe('      ✗ not running: script changed since approval (hook-semantics §5.5)');
    expect(pre[4]).toBe(
      `      ✗ not running: not approved (not in the allowlist); approve it: hookgate hooks approve pre_tool_call ${h}/a.sh --home ${h} --yes`,
    );
    expect(post[3]).toContain('doctor');
    expect(lines[lines.indexOf('[on_session_start]') + 1]).toContain('disabled');
  });

  it('list: a prompt hook needs no approval, so it is not reported as off for want of one (it runs, as dev registers it)', async () => {
    const h = home({}, 'hooks:\n  pre_tool_call:\n    - {type: prompt, prompt: "Is this safe?", matcher: terminal}\n');
    const r = await hookgate(['hooks', 'list', '--home', h]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("prompt: Is this safe?  type=prompt  matcher='terminal'  timeout=60s  ✓ needs no approval");
    expect(r.stdout).not.toContain('not running');
  });

  it('--stack that cannot be looked up: one line on stderr and exit 1, never a stack trace (as dlq and trace)', async () => {
    const h = home({}, 'hooks: {}\n');
    const env = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_SESSION_TOKEN: undefined,
      AWS_PROFILE: undefined,
      // Nothing listens on port 9 (discard): the lookup fails at once, with no retry.
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_MAX_ATTEMPTS: '1',
    };
    for (const args of [
      ['hooks', 'list', '--stack', 'no-such-stack', '--home', h],
      ['hooks', 'revoke', '/bin/true', '--stack', 'no-such-stack', '--home', h],
    ]) {
      const r = await runCliInProcess(args, { cwd: root, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^hookgate hooks: could not describe stack no-such-stack: .+\n$/);
      expect(r.stderr).not.toContain('    at ');
    }
  });

  it('list: mtime drift when no fingerprint was recorded (instants, not strings)', async () => {
    const h = home({ 'm.sh': 'echo m' }, 'hooks:\n  post_llm_call:\n    - command: $H/m.sh\n');
    const t = new Date('2026-03-01T11:58:40Z');
    utimesSync(join(h, 'm.sh'), t, t);
    const entry = (mtime: string) =>
      JSON.stringify({
        approvals: [
          { approved_at: '2026-03-01T12:00:00Z', command: `${h}/m.sh`, event: 'post_llm_call', script_mtime_at_approval: mtime },
        ],
      });
    writeFileSync(join(h, 'shell-hooks-allowlist.json'), entry('2026-03-01T11:58:40.000000Z'));
    expect((await hookgate(['hooks', 'list', '--home', h])).stdout).not.toContain('⚠');
    writeFileSync(join(h, 'shell-hooks-allowlist.json'), entry('2026-03-01T11:58:39.5Z'));
    const r = await hookgate(['hooks', 'list', '--home', h]);
    expect(r.stdout).toContain('⚠ script modified since approval');
    expect(r.stdout).toContain('2026-03-01T11:58:39.5Z');
    expect(r.stdout).toContain('2026-03-01T11:58:40Z');
    expect(r.stdout).toContain('hookgate hooks doctor');
  });

  it('test: unknown event, bad --expect, unreadable payload file (exit 0, or 2 with --expect)', async () => {
    const h = home({}, '');
    const unknown = await hookgate(['hooks', 'test', 'pre_tools_call', '--home', h]);
    expect(unknown.code).toBe(0);
    expect(unknown.stdout).toContain("Unknown event: 'pre_tools_call'");
    expect(unknown.stdout).toContain(VALID_HOOK_NAMES_TEXT);
    expect((await hookgate(['hooks', 'test', 'pre_tools_call', '--expect', 'block', '--home', h])).code).toBe(2);
    // A name with a colon is a gateway event only when the gateway emits it.
    const colon = await hookgate(['hooks', 'test', 'foo:bar', '--home', h]);
    expect(colon.stdout).toContain("Unknown event: 'foo:bar'");
    expect((await hookgate(['hooks', 'test', 'foo:bar', '--expect', 'allow', '--home', h])).code).toBe(2);
    expect((await hookgate(['hooks', 'test', 'pre_tool_call', '--expect', 'deny', '--home', h])).code).toBe(2);
    const missing = await hookgate(['hooks', 'test', 'pre_tool_call', '--payload-file', join(h, 'nope.json'), '--home', h]);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toContain('Error reading payload file: ');
    expect(
      (
        await hookgate([
          'hooks',
          'test',
          'pre_tool_call',
          '--payload-file',
          join(h, 'nope.json'),
          '--expect',
          'allow',
          '--home',
          h,
        ])
      ).code,
    ).toBe(2);
    const none = await hookgate(['hooks', 'test', 'pre_llm_call', '--for-tool', 'terminal', '--home', h]);
    expect(none.stdout).toContain('No shell hooks configured for event: pre_llm_call\n(with matcher filter --for-tool=terminal)');
    expect((await hookgate(['hooks', 'test', 'pre_llm_call', '--expect', 'allow', '--home', h])).code).toBe(1);
  });

  it('test --expect: a rewrite (action rewrite, or updatedInput) is not a block (§5.6, §5.10)', async () => {
    const h = home(
      {
        'rewrite.sh': `cat >/dev/null; echo '{"action": "rewrite", "args": {"command": "echo safer"}}'`,
        'updated.sh': `cat >/dev/null; echo '{"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "ls"}}}'`,
      },
      'hooks:\n  pre_tool_call:\n    - command: $H/rewrite.sh\n    - command: $H/updated.sh\n      payload: claude\n',
    );
    const allow = await hookgate(['hooks', 'test', 'pre_tool_call', '--expect', 'allow', '--home', h]);
    expect(allow.stdout).toContain('"action": "rewrite"');
    expect(allow.code).toBe(0);
    expect((await hookgate(['hooks', 'test', 'pre_tool_call', '--expect', 'block', '--home', h])).code).toBe(1);
  });

  it('test: runs un-allowlisted hooks with the exact synthetic stdin; matcher filter only with --for-tool', async () => {
    const h = home(
      { 'cap.sh': 'cat > "$H/stdin-$1.json"', 'web.sh': 'cat >/dev/null; touch "$H/web-ran"' },
      `hooks:
  subagent_stop:
    - {command: $H/cap.sh stop}
  pre_tool_call:
    - {command: $H/cap.sh pre, matcher: terminal}
    - {command: $H/web.sh, matcher: web_search}
`,
    );
    const stop = await hookgate(['hooks', 'test', 'subagent_stop', '--home', h]);
    expect(stop.stdout).toContain("Firing 1 hook(s) for event 'subagent_stop':\n\n→ ");
    expect(stop.stdout).toContain('parsed: <none — hook contributed nothing to the dispatcher>');
    expect(readFileSync(join(h, 'stdin-stop.json'), 'utf8')).toBe(
      `{"hook_event_name": "subagent_stop", "tool_name": null, "tool_input": null, "session_id": "parent-sess", "cwd": "${root}", "extra": {"child_role": null, "child_summary": "Synthetic summary for hooks test", "child_status": "completed", "duration_ms": 1234}}`,
    );
    const pre = await hookgate(['hooks', 'test', 'pre_tool_call', '--for-tool', 'terminal', '--home', h]);
    expect(pre.stdout).toContain('Firing 1 hook(s)');
    expect(existsSync(join(h, 'web-ran'))).toBe(false);
    expect(readFileSync(join(h, 'stdin-pre.json'), 'utf8')).toBe(
      `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "echo hello"}, "session_id": "test-session", "cwd": "${root}", "extra": {"task_id": "test-task", "tool_call_id": "test-call"}}`,
    );
    writeFileSync(join(h, 'p.json'), JSON.stringify({ tool_name: 'from-file', args: { command: 'ls' }, extra_key: 'é' }));
    const merged = await hookgate([
      'hooks',
      'test',
      'pre_tool_call',
      '--for-tool',
      'terminal',
      '--payload-file',
      join(h, 'p.json'),
      '--home',
      h,
    ]);
    expect(merged.stdout).toContain('Firing 1 hook(s)');
    expect(readFileSync(join(h, 'stdin-pre.json'), 'utf8')).toBe(
      `{"hook_event_name": "pre_tool_call", "tool_name": "from-file", "tool_input": {"command": "ls"}, "session_id": "test-session", "cwd": "${root}", "extra": {"task_id": "test-task", "tool_call_id": "test-call", "extra_key": "é"}}`,
    );
    // A `__proto__` key is a key like any other: appended, not made the payload's prototype (§4.2: nothing is dropped).
    writeFileSync(join(h, 'proto.json'), '{"b": 2, "__proto__": {"x": 1}}');
    await hookgate([
      'hooks',
      'test',
      'pre_tool_call',
      '--for-tool',
      'terminal',
      '--payload-file',
      join(h, 'proto.json'),
      '--home',
      h,
    ]);
    expect(readFileSync(join(h, 'stdin-pre.json'), 'utf8')).toContain(
      '"extra": {"task_id": "test-task", "tool_call_id": "test-call", "b": 2, "__proto__": {"x": 1}}}',
    );
    writeFileSync(join(h, 'list.json'), '[1]');
    const nonObject = await hookgate(['hooks', 'test', 'pre_tool_call', '--payload-file', join(h, 'list.json'), '--home', h]);
    expect(nonObject.stdout).toContain(`Warning: ${join(h, 'list.json')} is not a JSON object; ignoring`);
    expect(nonObject.stdout).toContain('Firing 2 hook(s)'); // no --for-tool: matchers not applied
    expect(existsSync(join(h, 'web-ran'))).toBe(true);
  });

  it('test --expect: exit 2 + stderr blocks, hookSpecificOutput deny blocks, context, fail-open and fail-closed', async () => {
    const h = home(
      {
        'exit2.sh': 'cat >/dev/null; echo "{\\"decision\\": \\"allow\\"}"; echo "rm -rf refused" >&2; exit 2',
        'deny.sh': `cat >/dev/null; echo '{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "nein ✓"}}'`,
        'ctx.sh': `cat >/dev/null; echo '{"context": "branch: main"}'`,
        'long.sh': `cat >/dev/null; printf '%0500d' 0`,
      },
      `hooks:
  pre_tool_call:
    - {command: $H/exit2.sh, matcher: terminal}
    - {command: $H/deny.sh, matcher: write_file}
    - {command: $H/missing.sh, matcher: read_file}
    - {command: $H/missing2.sh, matcher: patch, fail_closed: true}
    - {command: $H/long.sh, matcher: web}
    - {command: $H/ctx.sh, matcher: web, enabled: false}
  pre_llm_call:
    - {command: $H/ctx.sh}
`,
    );
    const t = (...args: string[]) => hookgate(['hooks', 'test', ...args, '--home', h]);
    const exit2 = await t('pre_tool_call', '--for-tool', 'terminal', '--expect', 'block');
    expect(exit2.code).toBe(0);
    expect(exit2.stdout).toMatch(/exit=2 {2}elapsed=\d+(\.\d+)?s/);
    expect(exit2.stdout).toContain('stderr: rm -rf refused');
    expect(exit2.stdout).toContain('parsed (Hermes wire shape): {"action": "block", "message": "rm -rf refused"}');
    expect(exit2.stdout.trimEnd().split('\n').at(-1)).toContain("Expectation 'block' met");
    expect((await t('pre_tool_call', '--for-tool', 'terminal', '--expect', 'allow')).code).toBe(1);
    const deny = await t('pre_tool_call', '--for-tool', 'write_file', '--expect', 'block');
    expect(deny.code).toBe(0);
    expect(deny.stdout).toContain('{"action": "block", "message": "nein \\u2713"}');
    const missing = await t('pre_tool_call', '--for-tool', 'read_file', '--expect', 'allow');
    expect(missing.stdout).toContain('✗ error: command not found');
    expect(missing.code).toBe(1); // it only "allowed" by failing open
    const closed = await t('pre_tool_call', '--for-tool', 'patch', '--expect', 'block');
    expect(closed.stdout).toContain('✗ error: command not found');
    expect(closed.stdout).toContain(
      `parsed (Hermes wire shape): {"action": "block", "message": "hook ${h}/missing2.sh failed closed: command not found"}`,
    );
    expect(closed.code).toBe(0);
    const long = await t('pre_tool_call', '--for-tool', 'web', '--expect', 'allow');
    expect(long.stdout).toContain(`stdout: ${'0'.repeat(397)}...\n`);
    expect(long.stdout).toContain('Skipping 1 disabled hook(s)');
    expect(long.code).toBe(0);
    const ctx = await t('pre_llm_call', '--expect', 'context');
    expect(ctx.stdout).toContain('parsed (Hermes wire shape): {"context": "branch: main"}');
    expect(ctx.code).toBe(0);
    expect((await t('pre_llm_call', '--expect', 'block')).code).toBe(1);
    expect((await t('pre_llm_call')).code).toBe(0);
  });

  it('approve and revoke: records (with sha256), with --yes or with no TTY to ask on; revoke is exact', async () => {
    const h = home({ 'g.sh': 'echo g' }, 'hooks:\n  pre_tool_call:\n    - command: $H/g.sh\n');
    const cmd = `${h}/g.sh`;
    expect((await hookgate(['hooks', 'approve', 'pre_tools_call', cmd, '--yes', '--home', h])).code).toBe(2);
    expect(existsSync(join(h, 'shell-hooks-allowlist.json'))).toBe(false);
    // No TTY (the test's stdin is a pipe): the command line that names the pair is the consent.
    const unasked = await hookgate(['hooks', 'approve', 'pre_tool_call', cmd, '--home', h]);
    expect(unasked.code).toBe(0);
    expect(unasked.stdout).toContain(`Approved [pre_tool_call] ${cmd}`);
    expect((await hookgate(['hooks', 'approve', 'post_tool_call', cmd, '--yes', '--home', h])).code).toBe(0);
    const file = JSON.parse(readFileSync(join(h, 'shell-hooks-allowlist.json'), 'utf8'));
    expect(file.approvals.map((e: { event: string }) => e.event)).toEqual(['pre_tool_call', 'post_tool_call']);
    expect(file.approvals[0].script_sha256_at_approval).toMatch(/^[0-9a-f]{64}$/);
    const none = await hookgate(['hooks', 'revoke', `${cmd} `, '--home', h]);
    expect(none.stdout).toBe(`No allowlist entry found for command: ${cmd} \n`);
    const removed = await hookgate(['hooks', 'rm', cmd, '--home', h]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Removed 2 allowlist entry/entries for: ${cmd}\n`);
    expect(removed.stdout).toContain('restart');
    await hookgate(['hooks', 'approve', 'pre_tool_call', cmd, '--yes', '--home', h]);
    expect((await hookgate(['hooks', 'remove', cmd, '--home', h])).stdout).toContain(
      `Removed 1 allowlist entry/entries for: ${cmd}`,
    );
  });

  it('doctor: no entries', async () => {
    const r = await hookgate(['hooks', 'doctor', '--home', home({}, '')]);
    expect(r.stdout).toBe('No shell hooks configured — nothing to check.\n');
    expect(r.code).toBe(0);
  });

  it("test: shows the plugins' callbacks after the shell hooks (--expect judges the shell hooks, §5.6); a shell syntax error's exit 2 blocks, as at run time, with a warning", async () => {
    const h = home(
      { 'broken.sh': 'cat >/dev/null\nif then fi' },
      'plugins:\n  enabled: [veto]\nhooks:\n  pre_tool_call:\n    - {command: $H/broken.sh}\n',
    );
    mkdirSync(join(h, 'plugins', 'veto'), { recursive: true });
    writeFileSync(join(h, 'plugins', 'veto', 'plugin.yaml'), 'name: veto\n');
    writeFileSync(
      join(h, 'plugins', 'veto', 'index.mjs'),
      "export function register(ctx) { ctx.register_hook('pre_llm_call', function add_note() { return { context: 'note' }; }); }\n",
    );
    const broken = await hookgate(['hooks', 'test', 'pre_tool_call', '--home', h, '--expect', 'block']);
    expect(broken.stdout).toContain('stderr: ');
    expect(broken.stdout).toContain('⚠ exit 2 with a shell syntax error on stderr: this blocks');
    expect(broken.stdout.trimEnd().split('\n').at(-1)).toBe("Expectation 'block' met.");
    expect(broken.code).toBe(0);
    const plugin = await hookgate(['hooks', 'test', 'pre_llm_call', '--home', h, '--expect', 'context']);
    // The spec's lines first, then the plugin's run, then the expectation: no shell hook was selected.
    expect(plugin.stdout.startsWith('No shell hooks configured for event: pre_llm_call\n')).toBe(true);
    expect(plugin.stdout).toContain("Running 1 plugin callback(s) for event 'pre_llm_call':");
    expect(plugin.stdout).toContain('→ plugin veto: add_note');
    expect(plugin.stdout).toContain('returned: {"context":"note"}');
    expect(plugin.stdout.trimEnd().split('\n').at(-1)).toBe("Expectation 'context' NOT met: no hook was selected.");
    expect(plugin.code).toBe(1);
  });

  it('test: a gateway event (command:model) fires the gateway hooks subscribed to it and shows the decision', async () => {
    const h = home({}, '');
    mkdirSync(join(h, 'hooks', 'policy'), { recursive: true });
    writeFileSync(join(h, 'hooks', 'policy', 'HOOK.yaml'), 'name: policy\nevents: [command:*]\n');
    writeFileSync(
      join(h, 'hooks', 'policy', 'handler.mjs'),
      "export function handle(type, ctx) { return ctx.command === 'model' && ctx.args === '' ? { decision: 'handled', message: `Usage: /model <name> (${type})` } : null; }\n",
    );
    mkdirSync(join(h, 'hooks', 'broken'), { recursive: true });
    writeFileSync(join(h, 'hooks', 'broken', 'HOOK.yaml'), 'name: broken\nevents: [command:model]\n');
    writeFileSync(
      join(h, 'hooks', 'broken', 'handler.mjs'),
      "export function handle() { throw new Error('policy store down'); }\n",
    );
    const r = await hookgate(['hooks', 'test', 'command:model', '--home', h]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Emitting 'command:model' to 2 gateway hook(s):");
    expect(r.stdout).toContain('→ gateway hook broken');
    expect(r.stdout).toContain('✗ error: policy store down');
    expect(r.stdout).toContain('→ gateway hook policy');
    expect(r.stdout).toContain('returned: {"decision":"handled","message":"Usage: /model <name> (command:model)"}');
    expect(r.stdout).toContain('decision: handled — reply: Usage: /model <name> (command:model)');
    const payload = join(h, 'args.json');
    writeFileSync(payload, '{"args": "gpt-4o", "raw_args": "gpt-4o"}');
    const named = await hookgate(['hooks', 'test', 'command:model', '--home', h, '--payload-file', payload]);
    expect(named.stdout).toContain('decision: run (no hook decided; the command runs)');
    const none = await hookgate(['hooks', 'test', 'agent:start', '--home', h, '--expect', 'allow']);
    expect(none.stdout).toContain('No gateway hooks subscribed to event: agent:start');
    expect(none.code).toBe(1);
  });

  it('doctor: a shell syntax error is a warning (sh -n), found without running the script, not a counted problem', async () => {
    const h = home(
      { 'broken.sh': 'touch "$H/broken-ran"\nif then fi', 'fine.sh': 'cat >/dev/null' },
      'hooks:\n  pre_tool_call:\n    - {command: $H/broken.sh}\n    - {command: $H/fine.sh}\n',
    );
    const r = await hookgate(['hooks', 'doctor', '--home', h]);
    const block = (cmd: string) => r.stdout.slice(r.stdout.indexOf(`[pre_tool_call] ${h}/${cmd}\n`)).split('\n\n')[0]!;
    expect(block('broken.sh')).toMatch(/⚠ shell syntax error \(sh -n\): .*syntax error/i);
    expect(block('fine.sh')).toContain('✓ shell syntax OK (sh -n)');
    expect(existsSync(join(h, 'broken-ran'))).toBe(false);
    // Two problems: neither script is allowlisted (§4.4's checks); the syntax warning is not counted.
    expect(r.stdout).toContain('2 issue(s) found.  Fix before relying on these hooks.');
  });

  it('doctor: every check, never runs an un-approved script, footer counts problems', async () => {
    const h = home(
      {
        'json.sh': `cat >/dev/null; echo '[1, 2]'; exit 3`,
        'text.sh': `cat >/dev/null; printf 'not json %0200d' 0`,
        'quiet.sh': 'cat > "$H/doctor-stdin.json"',
        'unapproved.sh': 'touch "$H/unapproved-ran"',
        'slow.sh': 'sleep 5',
        'changed.sh': 'echo "{}"',
      },
      `hooks:
  pre_tool_call:
    - {command: $H/json.sh}
  post_llm_call:
    - {command: $H/text.sh}
  subagent_start:
    - {command: $H/quiet.sh}
  on_session_end:
    - {command: $H/unapproved.sh}
    - {command: $H/gone.sh}
    - {command: $H/slow.sh, timeout: 1}
    - {command: $H/changed.sh}
    - {command: $H/quiet.sh, enabled: false}
`,
    );
    for (const [event, name] of [
      ['pre_tool_call', 'json.sh'],
      ['post_llm_call', 'text.sh'],
      ['subagent_start', 'quiet.sh'],
      ['on_session_end', 'gone.sh'],
      ['on_session_end', 'slow.sh'],
      ['on_session_end', 'changed.sh'],
    ]) {
      expect((await hookgate(['hooks', 'approve', event!, `${h}/${name}`, '--yes', '--home', h])).code).toBe(0);
    }
    writeFileSync(join(h, 'changed.sh'), '#!/bin/sh\ntouch "$0.ran"; echo "{\\"changed\\": true}"\n');
    const r = await hookgate(['hooks', 'doctor', '--home', h]);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out.startsWith('Checking 8 configured shell hook(s)...\n\n')).toBe(true);
    const block = (cmd: string, event: string) => out.slice(out.indexOf(`[${event}] ${h}/${cmd}\n`)).split('\n\n')[0]!;
    expect(block('json.sh', 'pre_tool_call')).toContain('✓ script exists and is executable');
    expect(block('json.sh', 'pre_tool_call')).toMatch(/✓ allowlisted \(approved \d{4}-/);
    expect(block('json.sh', 'pre_tool_call')).toContain('✓ script unchanged since approval');
    expect(block('json.sh', 'pre_tool_call')).toMatch(/✓ produced valid JSON on synthetic payload \(exit=3, [\d.]+s\)/);
    expect(block('text.sh', 'post_llm_call')).toContain(`✗ stdout was not valid JSON (exit=0, `);
    expect(block('text.sh', 'post_llm_call')).toContain(`): not json ${'0'.repeat(111)}\n`.slice(0, -1));
    expect(block('quiet.sh', 'subagent_start')).toMatch(
      /✓ ran clean with empty stdout \(exit=0, [\d.]+s\) — hook is observer-only/,
    );
    expect(readFileSync(join(h, 'doctor-stdin.json'), 'utf8')).toBe(
      `{"hook_event_name": "subagent_start", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "${root}", "extra": {"extra": {}}}`,
    );
    const unapproved = block('unapproved.sh', 'on_session_end');
    expect(unapproved).toContain('✗ not allowlisted');
    expect(unapproved).toContain('NOT fire at runtime');
    expect(unapproved).toContain('--accept-hooks');
    expect(unapproved).toContain('ℹ skipped JSON smoke test — not allowlisted yet');
    expect(existsSync(join(h, 'unapproved-ran'))).toBe(false);
    const gone = block('gone.sh', 'on_session_end');
    expect(gone).toContain('✗ script missing or not executable (chmod +x the file, or fix the path)');
    expect(gone).not.toContain('smoke');
    expect(gone.split('\n')).toHaveLength(3);
    expect(block('slow.sh', 'on_session_end')).toMatch(/✗ timed out after [\d.]+s on synthetic payload \(timeout=1s\)/);
    expect(block('changed.sh', 'on_session_end')).toContain('⚠ script content changed since approval');
    expect(block('changed.sh', 'on_session_end')).toContain('revoke and re-approve');
    // §5.5: doctor does not execute a script whose content changed since approval.
    expect(block('changed.sh', 'on_session_end')).toContain(
      'ℹ skipped JSON smoke test — the script changed since approval and was not executed',
    );
    expect(existsSync(join(h, 'changed.sh.ran'))).toBe(false);
    expect(out).toContain(`[on_session_end] ${h}/quiet.sh\n  ℹ disabled`);
    // problems: text(1) unapproved(1) gone(1) slow(1) changed(1) = 5
    expect(out.trimEnd().split('\n').at(-1)).toBe('5 issue(s) found.  Fix before relying on these hooks.');
    // --strict: the same report, exit 1 (§5.8).
    const strict = await hookgate(['hooks', 'doctor', '--strict', '--home', h]);
    expect(strict.stdout.trimEnd().split('\n').at(-1)).toBe('5 issue(s) found.  Fix before relying on these hooks.');
    expect(strict.code).toBe(1);
  });

  it('doctor: hooks_on_drift: warn smoke-tests a changed script as the reference does', async () => {
    const h = home(
      { 'changed.sh': 'echo "{}"' },
      'hooks_on_drift: warn\nhooks:\n  on_session_end:\n    - {command: $H/changed.sh}\n',
    );
    await hookgate(['hooks', 'approve', 'on_session_end', `${h}/changed.sh`, '--yes', '--home', h]);
    writeFileSync(join(h, 'changed.sh'), '#!/bin/sh\ntouch "$0.ran"; echo "{}"\n');
    const r = await hookgate(['hooks', 'doctor', '--home', h]);
    expect(r.stdout).toContain('⚠ script content changed since approval');
    expect(r.stdout).toContain('✓ produced valid JSON on synthetic payload');
    expect(existsSync(join(h, 'changed.sh.ran'))).toBe(true);
  });

  it('doctor: healthy footer; content identical after touch is a note, not a problem', async () => {
    const h = home({ 'ok.sh': 'cat >/dev/null; echo "{}"' }, 'hooks:\n  pre_tool_call:\n    - command: $H/ok.sh\n');
    await hookgate(['hooks', 'approve', 'pre_tool_call', `${h}/ok.sh`, '--yes', '--home', h]);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(h, 'ok.sh'), later, later);
    const r = await hookgate(['hooks', 'doctor', '--home', h]);
    expect(r.stdout).toContain('✓ script unchanged since approval');
    expect(r.stdout).toContain('ℹ script timestamp changed');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('All shell hooks look healthy.');
    expect((await hookgate(['hooks', 'doctor', '--strict', '--home', h])).code).toBe(0);
  });

  it('doctor: notes hooks that need programs the Lambda runtime lacks, without counting a problem', async () => {
    const h = home(
      { 'uses-jq.sh': 'jq -r .tool_name | tr a-z A-Z', 'plain.sh': 'cat >/dev/null; echo "{}"' },
      'hooks:\n  pre_tool_call:\n    - command: $H/uses-jq.sh\n    - command: python3 $H/guard.py\n    - command: $H/plain.sh\n',
    );
    writeFileSync(join(h, 'guard.py'), 'print("{}")\n');
    await hookgate(['hooks', 'approve', 'pre_tool_call', `${h}/plain.sh`, '--yes', '--home', h]);
    const r = await hookgate(['hooks', 'doctor', '--home', h]);
    const block = (command: string) => r.stdout.split('\n\n').find((b) => b.includes(`] ${command}`)) ?? '';
    expect(block(`${h}/uses-jq.sh`)).toContain('ℹ would not run in AWS Lambda (nodejs22.x has no jq)');
    expect(block(`python3 ${h}/guard.py`)).toContain('ℹ would not run in AWS Lambda (nodejs22.x has no python3)');
    expect(block(`${h}/plain.sh`)).not.toContain('AWS Lambda');
    expect(r.stdout).toContain('2 issue(s) found.'); // the two un-approved hooks, not the Lambda notes
  });
});

const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0;
describe.runIf(hasScript)('hookgate hooks approve on a TTY', { timeout: 120_000 }, () => {
  it.each([
    ['y\n', true],
    ['n\n', false],
  ])('answers %j → approved %s; colour only on the TTY', (answer, approved) => {
    const h = home({ 'tty.sh': 'true' }, 'hooks:\n  pre_tool_call:\n    - command: $H/tty.sh\n');
    const cmd = `${process.execPath} ${BIN} hooks approve pre_tool_call ${h}/tty.sh --home ${h}`;
    const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], {
      input: answer,
      encoding: 'utf8',
      env: cleanEnv(),
      timeout: 100_000,
    });
    expect(r.stdout).toContain('Allow this hook to run? [y/N]: ');
    expect(existsSync(join(h, 'shell-hooks-allowlist.json'))).toBe(approved);
    expect(r.status).toBe(approved ? 0 : 1);
    if (approved) expect(r.stdout).toContain('\x1b[32m✓\x1b[0m Approved');
  });
});
