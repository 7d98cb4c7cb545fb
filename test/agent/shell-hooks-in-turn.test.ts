import { appendFile, chmod, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { summarizeTurn } from '../../src/store/turn-summary.ts';
import { loadReplayEngine, replayTurn } from '../../src/agent/trace/replay-turn.ts';
import { enable } from '../hooks/support/temp-home.ts';
import { startTurnHarness, type TurnHarness } from './support/turn-harness.ts';

let h: TurnHarness;
beforeAll(async () => {
  h = await startTurnHarness({
    acceptHooks: true,
    prepare: async (home) => {
      // Shell hooks spawn their command as written; absolute script paths keep it independent of the cwd.
      await writeFile(
        `${home}/config.yaml`,
        `${enable('recorder')}hooks:
  pre_tool_call:
    - matcher: terminal
      command: ${home}/agent-hooks/no-curl.sh
    - matcher: write_file
      command: ${home}/agent-hooks/guard-writes.sh
      fail_closed: true
  pre_llm_call:
    - command: ${home}/agent-hooks/context.sh
    - command: ${home}/agent-hooks/prompt-guard.sh
      payload: claude
`,
      );
      await chmod(`${home}/agent-hooks/no-curl.sh`, 0o755);
      await chmod(`${home}/agent-hooks/context.sh`, 0o755);
      await chmod(`${home}/agent-hooks/guard-writes.sh`, 0o755);
      await chmod(`${home}/agent-hooks/prompt-guard.sh`, 0o755);
    },
    files: {
      'agent-hooks/no-curl.sh': `#!/bin/sh
payload=$(cat)
case "$payload" in
  *curl*) printf '{"decision": "block", "reason": "no network from here"}' ;;
  *) printf '{}' ;;
esac
`,
      'agent-hooks/guard-writes.sh': `#!/bin/sh
cat > /dev/null
printf '{}'
`,
      // The turn's telemetry event, as a consumer gets it (a gateway hook on hookgate:turn_trace).
      'hooks/turn-traces/HOOK.yaml': 'name: turn-traces\nevents: [hookgate:turn_trace]\n',
      'hooks/turn-traces/handler.ts': `
import { appendFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
const home = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export function handle(_event: string, context: any) {
  appendFileSync(join(home, 'turn-traces.jsonl'), JSON.stringify(context) + '\\n');
}
`,
      // Claude Code's UserPromptSubmit block: exit 2, the reason on stderr.
      'agent-hooks/prompt-guard.sh': `#!/bin/sh
case "$(cat)" in
  *forbidden-plan*) echo "prompts about the plan stay here" >&2; exit 2 ;;
esac
`,
      'agent-hooks/context.sh': `#!/bin/sh
cat > /dev/null
printf '{"context": "from a shell hook"}'
`,
    },
  });
});
afterAll(async () => {
  await h?.close();
});

describe('shell hooks in a real turn (child processes)', () => {
  it('a shell pre_tool_call block and shell pre_llm_call context take effect, after the plugins', async () => {
    await h.decide({ pre_llm_call: 'from the plugin' });
    h.model.script(
      { tool_calls: [{ name: 'terminal', arguments: { command: 'curl https://example.com' } }] },
      { content: 'blocked' },
    );
    const result = await h.say('fetch it', 'shell');
    const last = h.model.requests.at(-1)!.body.messages;
    expect(last[1]).toEqual({ role: 'user', content: 'fetch it\n\nfrom the plugin\n\nfrom a shell hook' });
    expect(last.at(-1)).toMatchObject({ role: 'tool', content: '{"error": "no network from here"}' });
    const post = (await h.takeCalls()).find((c) => c.hook === 'post_tool_call')!;
    expect(post.kwargs).toMatchObject({ status: 'blocked', error_message: 'no network from here' });
    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    const pre = records.filter((r) => r.hook === 'pre_tool_call');
    expect(pre.map((r) => [r.source, r.decision])).toEqual([
      ['plugin', 'allow'],
      ['shell', 'block: no network from here'],
      ['shell', 'skipped: matcher'], // guard-writes.sh, for write_file only
    ]);
    expect(pre[1]!.callback).toBe(`shell_hook[pre_tool_call:${h.home.path}/agent-hooks/no-curl.sh]`);
    // The shell run's own account (run-detail.ts): its exit code and output; a plugin's record has none.
    expect(pre[1]).toMatchObject({ exit_code: 0, stdout: '{"decision": "block", "reason": "no network from here"}' });
    expect(pre[0]).not.toHaveProperty('exit_code');
    // Its telemetry says the tool call was blocked, not done.
    const traces = (await readFile(`${h.home.path}/turn-traces.jsonl`, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { turn_id: string; operations: { kind: string; outcome?: string }[] });
    const tool = traces.find((t) => t.turn_id === result.turn_id)!.operations.find((o) => o.kind === 'execute_tool');
    expect(tool?.outcome).toBe('blocked');
  });

  it('a harmless command passes the shell hook', async () => {
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'echo fine' } }] }, { content: 'ok' });
    await h.say('echo', 'shell2');
    expect(JSON.parse(h.model.requests.at(-1)!.body.messages.at(-1)!.content!)).toEqual({
      output: 'fine\n',
      exit_code: 0,
      error: null,
    });
  });

  it('a fail_closed hook whose script changed since approval blocks the call, and the trace says block, not skipped', async () => {
    await appendFile(`${h.home.path}/agent-hooks/guard-writes.sh`, '# edited after approval\n');
    h.model.script({ tool_calls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }, { content: 'ok' });
    const result = await h.say('write it', 'shell3');
    const command = `${h.home.path}/agent-hooks/guard-writes.sh`;
    expect(h.model.requests.at(-1)!.body.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: `{"error": "hook ${command} failed closed: script changed since approval"}`,
    });
    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    const guard = records.filter((r) => r.callback === `shell_hook[pre_tool_call:${command}]`);
    expect(guard.map((r) => r.decision)).toEqual([`block: hook ${command} failed closed: script changed since approval`]);
  });

  it('a prompt blocked by a payload: claude pre_llm_call hook (exit 2): the trace says block, and the turn is listed as blocked', async () => {
    const before = h.model.requests.length;
    const result = await h.say('about the forbidden-plan', 'shell4');
    expect(h.model.requests.length).toBe(before); // the model was not asked
    const records = await new DynamoTraceStore(h.plane.table).list(result.turn_id);
    const guard = records.find((r) => r.callback === `shell_hook[pre_llm_call:${h.home.path}/agent-hooks/prompt-guard.sh]`)!;
    expect(guard.decision).toBe('block: prompts about the plan stay here');
    expect(guard.outcome).toBe('block: prompts about the plan stay here');
    expect(result).toMatchObject({ outcome: 'blocked' });
    expect(summarizeTurn(records, 'any').blocked).toBe(true);
    // hookgate replay on the same home decides the call as recorded: the block, not a context changed.
    const engine = await loadReplayEngine(h.home.path);
    try {
      const replay = await replayTurn(result.turn_id, records, engine, h.plane.transcripts);
      const call = replay.calls.find((c) => c.hook === 'pre_llm_call')!;
      expect(call).toMatchObject({ status: 'same', before: 'block: prompts about the plan stay here' });
      expect(replay.exit_code).toBe(0);
    } finally {
      await engine.close();
    }
  });
});
