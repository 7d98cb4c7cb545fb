import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';
import { runNode } from '../support/run-node.ts';

/**
 * `hookgate replay` against a running `hookgate dev` (the real binary): turns are recorded,
 * a plugin is edited from allow to block, and the replay names the difference and exits 1.
 * TMPDIR is private to the test, so "the only running dev" is this test's.
 */
const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));
const GUARD = (body: string) =>
  `export function register(ctx: any) { ctx.register_hook('pre_tool_call', function guard({ args }: any) { ${body} }); }\n`;

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function run(args: string[], env: NodeJS.ProcessEnv) {
  return runNode([BIN, ...args], { env });
}

describe('hookgate replay', () => {
  it('replays a recorded turn against an edited plugin: same → exit 0, allow → block → exit 1, unknown → exit 2', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hookgate-replay-'));
    const privateTmp = await mkdtemp(join(tmpdir(), 'hookgate-replay-tmp-'));
    cleanup.push(
      () => rm(home, { recursive: true, force: true }),
      () => rm(privateTmp, { recursive: true, force: true }),
    );
    await mkdir(join(home, 'plugins', 'guard'), { recursive: true });
    await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [guard]\n');
    await writeFile(join(home, 'plugins', 'guard', 'plugin.yaml'), 'name: guard\n');
    await writeFile(join(home, 'plugins', 'guard', 'index.ts'), GUARD('return null;'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOOKGATE_LOG_LEVEL: 'warn',
      HOOKGATE_DEV_STATE: 'memory',
      TMPDIR: privateTmp,
    };
    delete env.HOOKGATE_HOME;
    delete env.HERMES_HOME;
    delete env.HOOKGATE_MODEL_BASE_URL;
    const dev = await startDevChild(['--home', home, '--no-watch'], { cwd: home, env, timeoutMs: 40_000 });
    cleanup.push(() => dev.stop('SIGKILL'));
    const url = dev.url;

    const posted = await fetch(`${url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'replay-chat', user_id: 'alice', text: 'run: echo replayed' }),
    });
    expect(posted.status).toBe(202);
    let turnId = '';
    await until(async () => {
      const listed = (await (await fetch(`${url}/console/api/turns?chat=replay-chat`)).json()) as {
        turns: { turn_id: string; first_line: string }[];
      };
      turnId = listed.turns[0]?.turn_id ?? '';
      return turnId !== '';
    }, 'the recorded turn');

    // The CLI finds the only running dev (no --home), and the list has the turn's chat, user and first line.
    const listed = await run(['trace', '--list', '--chat', 'replay-chat', '--hook', 'guard', '--decision', 'allow'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(turnId);
    expect(listed.stdout).toContain('local:replay-chat');
    expect(listed.stdout).toContain('alice');
    expect(listed.stdout).toContain('run: echo replayed');
    expect((await run(['trace', '--list', '--decision', 'block'], env)).stdout).not.toContain(turnId);
    // An unknown turn is an error with --json too; a bad --limit is a usage error, not a silent 50.
    const missing = await run(['trace', 'turn_nope', '--json'], env);
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([
      1,
      '',
      expect.stringContaining('no hook calls recorded for turn_nope'),
    ]);
    const badLimit = await run(['trace', '--list', '--limit', 'abc'], env);
    expect(badLimit.code).not.toBe(0);
    expect(badLimit.stderr).toContain("option '--limit <n>' argument 'abc' is invalid");

    const same = await run(['replay', turnId], env);
    expect(same.stdout).toMatch(/= pre_tool_call\s+then: allow\s+now: allow/);
    expect(same.code, same.stdout + same.stderr).toBe(0);

    await writeFile(
      join(home, 'plugins', 'guard', 'index.ts'),
      GUARD("return args.command.includes('echo') ? { action: 'block', message: 'no echo' } : null;"),
    );
    const differs = await run(['replay', turnId, '--home', home], env);
    expect(differs.stdout).toContain('≠ pre_tool_call');
    expect(differs.stdout).toContain('[allow → block: no echo]');
    expect(differs.code, differs.stdout + differs.stderr).toBe(1);

    const json = await run(['replay', turnId, '--json'], env);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as {
      exit_code: number;
      calls: { hook: string; status: string; before: string; now: string }[];
    };
    expect(parsed.calls).toContainEqual(
      expect.objectContaining({ hook: 'pre_tool_call', status: 'differs', before: 'allow', now: 'block: no echo' }),
    );

    // The console's replay button calls the same.
    const viaConsole = await fetch(`${url}/console/api/turns/${turnId}/replay`, {
      method: 'POST',
      headers: { 'x-hookgate-console': '1' },
    });
    expect(((await viaConsole.json()) as { exit_code: number }).exit_code).toBe(1);

    const unknown = await run(['replay', 'turn_unknown'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no hook calls recorded for turn_unknown');
  }, 120_000);
});
