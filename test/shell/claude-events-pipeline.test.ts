import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
 * Issue 28: every Claude Code event a settings file can name is imported (or reported with its
 * reason), with all four handler types, and each imported one fires in `hookgate dev` where
 * docs/reference/claude-code.md says it does.
 */
const RECORDER = `#!/usr/bin/env python3
import json, os, sys
event = json.load(sys.stdin)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "seen.jsonl"), "a") as log:
    log.write(json.dumps(event) + "\\n")
`;

const PROMPT_GUARD = `#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
if "secret-plan" in event.get("prompt", ""):
    print("Prompts about the secret plan are not sent to the model.", file=sys.stderr)
    sys.exit(2)
`;

const PERMISSION = `#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
command = (event.get("tool_input") or {}).get("command", "")
if "deny-me" in command:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "not this one"}}}))
elif "allow-me" in command:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}))
`;
import { chatLocally } from '../support/local-chat.ts';

let root: string;
let project: string;
let home: string;
let dev: DevRuntime;
let server: Server;
let url: string;
const httpSeen: { hook_event_name?: string; tool_input?: { command?: string } }[] = [];

type Result = { code: number; stdout: string; stderr: string };

const hookgate = (args: string[]): Promise<Result> => runCliInProcess(args);

const chat = (chatId: string, text: string) => chatLocally(dev.url, chatId, text, { timeoutMs: 60_000 });

async function seen(): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(project, '.claude', 'hooks', 'seen.jsonl'), 'utf8').catch(() => '');
  return text.trim() === ''
    ? []
    : text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function fired(
  name: string,
  where: (r: Record<string, unknown>) => boolean = () => true,
): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await until(
    async () => (found = (await seen()).find((r) => r.hook_event_name === name && where(r))) !== undefined,
    `${name} to fire`,
    { timeoutMs: 60_000 },
  );
  return found!;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof httpSeen)[number];
      httpSeen.push(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      const blocked = body.tool_input?.command?.includes('http-block');
      response.end(
        JSON.stringify(
          blocked
            ? {
                hookSpecificOutput: {
                  hookEventName: 'PreToolUse',
                  permissionDecision: 'deny',
                  permissionDecisionReason: 'the http hook says no',
                },
              }
            : {},
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pre-tool-use`;

  root = await mkdtemp(join(tmpdir(), 'hookgate-claude-events-'));
  project = join(root, 'repo');
  home = join(root, 'home');
  const hooksDir = join(project, '.claude', 'hooks');
  await mkdir(hooksDir, { recursive: true });
  await mkdir(home, { recursive: true });
  for (const [name, text] of [
    ['record.py', RECORDER],
    ['prompt_guard.py', PROMPT_GUARD],
    ['permission.py', PERMISSION],
  ] as const) {
    await writeFile(join(hooksDir, name), text);
    await chmod(join(hooksDir, name), 0o755);
  }
  const record = [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/.claude/hooks/record.py' }];
  await writeFile(
    join(project, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'http', url, timeout: 10 }] },
          {
            matcher: 'Bash',
            hooks: [{ type: 'prompt', prompt: 'Block any command that mentions "prompt-block". Input: $ARGUMENTS' }],
          },
          { matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Check that the tests pass.' }] },
        ],
        UserPromptSubmit: [
          { hooks: [...record, { type: 'command', command: '$CLAUDE_PROJECT_DIR/.claude/hooks/prompt_guard.py' }] },
        ],
        PostToolUse: [{ matcher: 'Bash', hooks: record }],
        PostToolUseFailure: [{ hooks: record }],
        PermissionRequest: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/.claude/hooks/permission.py' }] },
        ],
        Notification: [{ hooks: record }],
        Stop: [{ hooks: record }],
        SubagentStop: [{ hooks: record }],
        SessionStart: [{ hooks: record }],
        SessionEnd: [{ hooks: record }],
        PreCompact: [{ hooks: record }],
      },
    }),
  );
}, 60_000);

afterAll(async () => {
  await dev?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await rm(root, { recursive: true, force: true });
});

describe('every Claude Code event, imported and fired', () => {
  it('imports all four handler types; the unmappable ones are reported with the reason', async () => {
    const result = await hookgate([
      'hooks',
      'import',
      '--from-claude',
      join(project, '.claude', 'settings.json'),
      '--home',
      home,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('12 imported, 0 already in config.yaml, 2 not imported.');
    expect(result.stdout).toMatch(/PreCompact\s+-\s+.*✗ not imported: hookgate does not compact the context/);
    expect(result.stdout).toMatch(
      /PreToolUse\s+Bash\s+\(agent\) Check that the tests pass\.\s+✗ not imported: type "agent" hooks/,
    );
    const config = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as {
      hooks: Record<string, Record<string, unknown>[]>;
    };
    expect(config.hooks.pre_tool_call).toEqual([
      { type: 'http', matcher: 'terminal', url, timeout: 10, payload: 'claude' },
      {
        type: 'prompt',
        matcher: 'terminal',
        prompt: 'Block any command that mentions "prompt-block". Input: $ARGUMENTS',
        payload: 'claude',
      },
    ]);
    expect(config.hooks.pre_approval_request!.map((e) => e.claude_event)).toEqual(['PermissionRequest', 'Notification']);
    expect(config.hooks.post_tool_call!.map((e) => e.claude_event)).toEqual(['PostToolUse', 'PostToolUseFailure']);

    // Approve what needs approval: commands by command, the http hook by its URL; the prompt hook needs none.
    for (const [event, entries] of Object.entries(config.hooks)) {
      for (const entry of entries) {
        if (entry.type === 'prompt') continue;
        const key = String(entry.type === 'http' ? entry.url : entry.command);
        expect((await hookgate(['hooks', 'approve', event, key, '--yes', '--home', home])).code).toBe(0);
      }
    }
    const list = await hookgate(['hooks', 'list', '--home', home]);
    expect(list.stdout).not.toContain('not allowlisted');
    expect(list.stdout).toMatch(/prompt: Block any command .*type=prompt .*✓ needs no approval/);

    // `hooks test` reads a PermissionRequest decision as the live approval gate does.
    const approval = (command: string) => {
      const file = join(root, `approval-${command.replace(/\W/g, '')}.json`);
      return writeFile(file, JSON.stringify({ command, description: 'recursive delete' })).then(() => file);
    };
    const testApproval = async (command: string, expectation: 'block' | 'allow') =>
      hookgate([
        'hooks',
        'test',
        'pre_approval_request',
        '--payload-file',
        await approval(command),
        '--expect',
        expectation,
        '--home',
        home,
      ]);
    const denied = await testApproval('rm -rf ../deny-me', 'block');
    expect(denied.stdout).toContain('parsed (PermissionRequest): deny: not this one');
    expect(denied.code, denied.stdout).toBe(0);
    const allowed = await testApproval('rm -rf ../allow-me', 'allow');
    expect(allowed.stdout).toContain('parsed (PermissionRequest): allow');
    expect(allowed.code, allowed.stdout).toBe(0);
    // The Notification recorder ran in those tests too: the live turns below start from an empty record.
    await rm(join(project, '.claude', 'hooks', 'seen.jsonl'), { force: true });
  });

  it('each imported event fires where documented', async () => {
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

    // PreToolUse: the http hook and the prompt hook block; both got Claude Code's input.
    expect(await chat('e1', 'run: echo http-block')).toBe('Error: the http hook says no');
    expect(httpSeen.at(-1)).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo http-block' },
    });
    expect(await chat('e1', 'run: echo prompt-block')).toBe('Error: stand-in judge: the input contains "prompt-block"');
    // SessionStart (first turn of the session), UserPromptSubmit, Stop.
    expect(await fired('SessionStart')).toMatchObject({ source: 'startup' });
    expect(await fired('UserPromptSubmit', (r) => r.prompt === 'run: echo http-block')).toBeDefined();
    expect(await fired('Stop')).toMatchObject({ stop_hook_active: false });
    // A blocked call fired no PostToolUse.
    expect((await seen()).filter((r) => r.hook_event_name === 'PostToolUse')).toEqual([]);

    // PostToolUse for a result, PostToolUseFailure for an error.
    expect(await chat('e2', 'run: echo fine')).toBe('fine');
    expect(await fired('PostToolUse')).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'echo fine' } });
    expect(await chat('e2', 'read: no-such-file.txt')).toMatch(/^Error: /);
    const failure = await fired('PostToolUseFailure');
    expect(failure).toMatchObject({ tool_name: 'Read', tool_input: { file_path: 'no-such-file.txt' }, is_interrupt: false });
    expect(String(failure.error)).toMatch(/no-such-file\.txt/);
    expect((await seen()).filter((r) => r.hook_event_name === 'PostToolUse')).toHaveLength(1);

    // UserPromptSubmit can block the prompt: the model is not asked, the reason is the reply.
    expect(await chat('e3', 'the secret-plan is ready')).toBe('Prompts about the secret plan are not sent to the model.');

    // PermissionRequest answers a dangerous command's approval: deny, allow; silence asks the user (Notification).
    expect(await chat('e4', 'run: rm -rf ../deny-me')).toBe('Error: not this one');
    expect(await chat('e4', 'run: rm -rf ../allow-me && echo removed')).toBe('removed');
    const asked = await chat('e5', 'run: rm -rf ../ask-me');
    expect(asked).toContain('rm -rf ../ask-me');
    expect(await fired('Notification')).toMatchObject({ notification_type: 'permission_prompt' });
    expect((await seen()).filter((r) => r.hook_event_name === 'Notification')).toHaveLength(1);

    // SubagentStop when a delegated child ends; SessionEnd when the session is reset.
    await chat('e6', 'delegate: run: echo from-child');
    expect(await fired('SubagentStop')).toMatchObject({ stop_hook_active: false });
    await chat('e6', '/new');
    expect(await fired('SessionEnd')).toMatchObject({ reason: expect.any(String) });
  }, 240_000);
});
