import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { until } from '../support/until.ts';
import { runCliInProcess } from '../support/run-cli.ts';

/**
 * Issue 18 end to end: a Claude Code settings file with PreToolUse / PostToolUse /
 * UserPromptSubmit / Stop hooks is imported into a hooks home, the entries are approved with
 * `hookgate hooks approve`, and `hookgate dev` (in-process: gateway, emulators, turn consumer,
 * stand-in model) runs them on their Claude Code payload. The two validators are the worked
 * examples of docs/reference/claude-code.md, read from the page.
 */
const DOC = new URL('../../docs/reference/claude-code.md', import.meta.url);

async function docExample(name: string): Promise<string> {
  const block = new RegExp(`<!-- example:${name} -->\\s*\`\`\`python\\n([\\s\\S]*?)\`\`\``).exec(await readFile(DOC, 'utf8'));
  if (!block) throw new Error(`example ${name} is missing from docs/reference/claude-code.md`);
  return block[1]!;
}

const RECORDER = `#!/usr/bin/env python3
import json, os, sys
event = json.load(sys.stdin)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "seen.jsonl"), "a") as log:
    log.write(json.dumps({"stdin": event, "project_dir": os.environ.get("CLAUDE_PROJECT_DIR")}) + "\\n")
`;
import { chatLocally } from '../support/local-chat.ts';

let root: string;
let project: string;
let home: string;
let dev: DevRuntime;

type Result = { code: number; stdout: string; stderr: string };

/** `hookgate …` in-process, output captured. */
const hookgate = (args: string[]): Promise<Result> => runCliInProcess(args);

const chat = (chatId: string, text: string) => chatLocally(dev.url, chatId, text);

async function seen(): Promise<{ stdin: Record<string, unknown>; project_dir: string }[]> {
  const text = await readFile(join(project, '.claude', 'hooks', 'seen.jsonl'), 'utf8').catch(() => '');
  return text.trim() === ''
    ? []
    : text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
}

const eventually = <T>(read: () => Promise<T | undefined>) => until(read, 'the hook records');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookgate-claude-'));
  project = join(root, 'repo');
  home = join(root, 'home');
  const hooksDir = join(project, '.claude', 'hooks');
  await mkdir(hooksDir, { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(join(hooksDir, 'bash_validator.py'), await docExample('bash-validator'));
  await writeFile(join(hooksDir, 'no_env_files.py'), await docExample('no-env-files'));
  await writeFile(join(hooksDir, 'record.py'), RECORDER);
  for (const script of ['bash_validator.py', 'record.py']) await chmod(join(hooksDir, script), 0o755);
  await writeFile(
    join(project, '.claude', 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['Bash(ls:*)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/bash_validator.py', timeout: 10 }],
          },
          {
            matcher: 'Write|Edit',
            hooks: [{ type: 'command', command: 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/no_env_files.py"' }],
          },
        ],
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/.claude/hooks/record.py' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/.claude/hooks/record.py' }] }],
        Stop: [{ hooks: [{ type: 'command', command: '${CLAUDE_PROJECT_DIR}/.claude/hooks/record.py' }] }],
        Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
      },
    }),
  );
  await writeFile(join(home, 'config.yaml'), '# operator notes stay\nhooks_auto_accept: false  # approvals by hand\n');
}, 60_000);

afterAll(async () => {
  await dev?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('Claude Code hooks imported, approved and run by the pipeline', () => {
  it('imports the settings: a table of what was imported and not, config.yaml keeps its comments', async () => {
    const settings = join(project, '.claude', 'settings.json');
    const dry = await hookgate(['hooks', 'import', '--from-claude', settings, '--home', home, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('6 imported, 0 already in config.yaml, 0 not imported.');
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).not.toContain('payload');

    const run = await hookgate(['hooks', 'import', '--from-claude', settings, '--home', home]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /PreToolUse\s+Bash\s+"\$CLAUDE_PROJECT_DIR"\/\.claude\/hooks\/bash_validator\.py\s+✓ imported as pre_tool_call matcher='terminal'/,
    );
    expect(run.stdout).toMatch(/Notification\s+-\s+notify-send hi\s+✓ imported as pre_approval_request/);
    const text = await readFile(join(home, 'config.yaml'), 'utf8');
    expect(text.startsWith('# operator notes stay\nhooks_auto_accept: false # approvals by hand\n')).toBe(true);
    const hooksDir = join(project, '.claude', 'hooks');
    expect(parse(text).hooks).toEqual({
      pre_tool_call: [
        { matcher: 'terminal', command: `${hooksDir}/bash_validator.py`, timeout: 10, payload: 'claude' },
        { matcher: 'write_file|patch', command: `python3 ${hooksDir}/no_env_files.py`, payload: 'claude' },
      ],
      post_tool_call: [{ matcher: 'terminal', command: `${hooksDir}/record.py`, payload: 'claude', claude_event: 'PostToolUse' }],
      pre_llm_call: [{ command: `${hooksDir}/record.py`, payload: 'claude' }],
      on_session_end: [{ command: `${hooksDir}/record.py`, payload: 'claude' }],
      pre_approval_request: [{ command: 'notify-send hi', payload: 'claude', claude_event: 'Notification' }],
    });

    const again = await hookgate(['hooks', 'import', '--from-claude', settings, '--home', home]);
    expect(again.stdout).toContain('0 imported, 6 already in config.yaml, 0 not imported.');
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe(text);
  });

  it('the imported hooks are not approved until approved', async () => {
    const list = await hookgate(['hooks', 'list', '--home', home]);
    expect(list.stdout.match(/✗ not allowlisted/g)).toHaveLength(6);
    expect(list.stdout).toContain('payload=claude');
    const config = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { hooks: Record<string, { command: string }[]> };
    for (const [event, entries] of Object.entries(config.hooks)) {
      for (const { command } of entries)
        expect((await hookgate(['hooks', 'approve', event, command, '--yes', '--home', home])).code).toBe(0);
    }
    expect((await hookgate(['hooks', 'list', '--home', home])).stdout.match(/✓ allowed/g)).toHaveLength(6);
  });

  // A dev start and four chats, each tool call in its own sandbox, on a loaded machine: room beyond the default 30 s (no timing is asserted).
  it('the Bash validator blocks a terminal call with exit 2, its stderr the message; the deny script blocks write_file', {
    timeout: 120_000,
  }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_HOME: home };
    delete env.HOOKGATE_MODEL_BASE_URL;
    delete env.HOOKGATE_ACCEPT_HOOKS;
    delete env.HERMES_ACCEPT_HOOKS;
    dev = await startDevRuntime({
      home,
      port: 0,
      env,
      print: () => {},
      createEngine: (options) => createHookEngine({ ...options, print: () => {}, logger: createMemoryLogger() }),
      createTurnConsumer: (context) => createTurnConsumer(context),
    });

    // The stand-in model reads each tool result back as chat text.
    expect(await chat('cc1', 'run: rm -rf build')).toBe(
      'Error: Recursive forced deletes are off limits here; delete specific files instead.',
    );
    expect(await chat('cc2', 'write: prod.env\nTOKEN=abc')).toBe(
      'Error: prod.env looks like an env file; secrets are not written by the agent.',
    );
    expect(await chat('cc3', 'write: notes.txt\nhello')).toBe('Wrote 5 bytes to notes.txt.');
    expect(await chat('cc3', 'run: echo allowed')).toBe('allowed');
  }); // dev start plus four turns: over vitest's default 30 s on a loaded machine

  it('the hooks read Claude Code’s stdin: event names, tool names, tool_input fields, CLAUDE_PROJECT_DIR', async () => {
    const records = await eventually(async () => {
      const all = await seen();
      const posts = all.filter((r) => r.stdin.hook_event_name === 'PostToolUse');
      return all.some((r) => r.stdin.hook_event_name === 'Stop') && posts.length >= 1 ? all : undefined;
    });
    for (const record of records) {
      expect(record.project_dir).toBe(process.cwd());
      expect(record.stdin).toMatchObject({ cwd: process.cwd(), permission_mode: 'default' });
      expect(record.stdin.session_id).toMatch(/\S/);
      expect(record.stdin).not.toHaveProperty('extra');
      expect(record.stdin).not.toHaveProperty('transcript_path');
    }
    const posts = records.filter((r) => r.stdin.hook_event_name === 'PostToolUse').map((r) => r.stdin);
    // As in Claude Code, a call a hook blocked fires no PostToolUse.
    expect(posts.find((p) => (p.tool_input as { command: string }).command === 'rm -rf build')).toBeUndefined();
    const post = posts.find((p) => (p.tool_input as { command: string }).command === 'echo allowed')!;
    expect(post).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'echo allowed' },
      tool_response: { output: 'allowed\n', exit_code: 0, error: null },
    });
    expect(post.tool_use_id).toMatch(/\S/);
    expect(records.filter((r) => r.stdin.hook_event_name === 'UserPromptSubmit').map((r) => r.stdin.prompt)).toContain(
      'run: echo allowed',
    );
    expect(records.find((r) => r.stdin.hook_event_name === 'Stop')!.stdin).toMatchObject({ stop_hook_active: false });
  });
});
