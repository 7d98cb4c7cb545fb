import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES, chatToolSetsFromConfig } from '../../src/config/chat-tool-sets.ts';
import { BUILTIN_TOOLS } from '../../src/agent/tools/tool-set.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { until } from '../support/until.ts';
import { enable, plugin } from '../hooks/support/temp-home.ts';
import { startPipeline, type Pipeline } from './support/pipeline-harness.ts';

const fixture = (name: string): string => readFileSync(new URL(`../gateway/fixtures/${name}`, import.meta.url), 'utf8');

const CONFIG = `${enable('probe')}tools:
  default: all
  discord: []
  chats:
    "local:reader": [read_file]
    "local:boss": [delegate_task, read_file]
`;

/** Notes every pre_tool_call and post_tool_call, one JSON line each. */
const PROBE = plugin(
  'probe',
  `
  const { appendFileSync } = await import('node:fs');
  const { join, dirname } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tool-calls.jsonl');
  for (const hook of ['pre_tool_call', 'post_tool_call']) {
    ctx.register_hook(hook, function probe(kwargs: any) { appendFileSync(file, JSON.stringify({ hook, ...kwargs }) + '\\n'); });
  }`,
);

let p: Pipeline;

beforeAll(async () => {
  p = await startPipeline({ 'config.yaml': CONFIG, ...PROBE });
});
afterAll(async () => {
  await p?.close();
});

const toolCalls = (): Record<string, any>[] => {
  const file = join(p.home.path, 'tool-calls.jsonl');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : [];
};
const offered = (index: number) => p.model.requests[index]!.body.tools?.map((tool) => tool.function.name);

async function localTurn(chatId: string, text: string): Promise<string> {
  const before = p.fake.requests.length;
  const outbox = async () =>
    (await (await fetch(`${p.dev.url}/webhooks/local/messages?chat_id=${chatId}`)).json()) as { text: string }[];
  const seen = (await outbox()).length;
  const res = await p.post('local', JSON.stringify({ chat_id: chatId, user_id: 'u1', text }));
  expect(res.status).toBe(202);
  let reply: string | undefined;
  await until(async () => {
    const out = await outbox();
    reply = out.at(-1)?.text;
    return out.length > seen;
  }, `a reply in ${chatId}`);
  expect(p.fake.requests.length).toBe(before);
  return reply!;
}

describe('tools: in config.yaml, through the running pipeline', () => {
  it('a Discord chat with no tools gets no tools in the model request, and a forced call does not run but fires pre_tool_call', async () => {
    const marker = join(p.home.path, 'terminal-ran');
    p.model.script(
      { tool_calls: [{ name: 'terminal', arguments: { command: `touch ${marker}` }, id: 'call_forced' }] },
      { content: 'could not' },
    );
    const res = await p.post('discord', fixture('discord-slash-command.docs.json'));
    expect(res.status).toBe(200);
    await until(() => p.fake.received('/discord/webhooks/999/A_UNIQUE_TOKEN').length > 0, 'the follow-up');
    expect(p.fake.received('/discord/webhooks/999/A_UNIQUE_TOKEN')[0]!.json).toMatchObject({ content: 'could not' });

    expect(p.model.requests).toHaveLength(2);
    expect(p.model.requests[0]!.body).not.toHaveProperty('tools');
    expect(p.model.requests[1]!.body).not.toHaveProperty('tools');
    expect(existsSync(marker)).toBe(false);
    const toolMessage = p.model.requests[1]!.body.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content!)).toEqual({
      error: "Tool 'terminal' is not available in this chat: tool set tools.discord is none",
    });

    // post_tool_call is an observer hook: it may run just after the reply.
    await until(() => toolCalls().length >= 2, 'post_tool_call');
    const calls = toolCalls();
    expect(calls.map((c) => c.hook)).toEqual(['pre_tool_call', 'post_tool_call']);
    expect(calls[0]).toMatchObject({ tool_name: 'terminal', args: { command: `touch ${marker}` }, tool_call_id: 'call_forced' });
    expect(calls[1]).toMatchObject({ status: 'blocked', error_type: 'tool_set', duration_ms: 0 });

    // The refusal is in the turn's trace beside the hook calls.
    // Stored once the invocation ends, just after the reply.
    let records: Awaited<ReturnType<DynamoTraceStore['list']>> = [];
    await until(
      async () =>
        (records = await new DynamoTraceStore(p.plane.table).list(calls[0]!.turn_id)).some((r) => r.hook === 'tool_set'),
      'the trace',
    );
    expect(records.map((r) => r.hook)).toEqual(expect.arrayContaining(['pre_tool_call', 'tool_set', 'post_tool_call']));
    expect(records.find((r) => r.hook === 'tool_set')).toMatchObject({
      source: 'config',
      callback: 'tools.discord',
      decision: expect.stringMatching(/^refused terminal: /),
    });
  });

  it('/tools answers what the chat may use', async () => {
    const body = JSON.parse(fixture('discord-slash-command.docs.json'));
    const res = await p.post(
      'discord',
      JSON.stringify({ ...body, id: '786008729715212339', data: { type: 1, name: 'tools', id: '1' } }),
    );
    expect(await res.json()).toEqual({ type: 4, data: { content: 'No tools in this chat (tools.discord).' } });
    expect(await localTurn('reader', '/tools')).toBe('Tools in this chat (tools.chats["local:reader"]):\n• read_file');
    expect(await localTurn('anyone', '/tools')).toBe(
      ['Tools in this chat (tools.default):', ...BUILTIN_TOOL_NAMES.map((n) => `• ${n}`)].join('\n'),
    );
  });

  it('a chat entry offers only its tools; the default offers every one', async () => {
    const first = p.model.requests.length;
    p.model.script({ content: 'one' }, { content: 'two' });
    expect(await localTurn('reader', 'hello')).toBe('one');
    expect(offered(first)).toEqual(['read_file']);
    expect(await localTurn('elsewhere', 'hello')).toBe('two');
    expect(offered(first + 1)).toEqual([...BUILTIN_TOOLS.keys()]);
  });

  it("a delegated child never gets more than its parent's set", async () => {
    const first = p.model.requests.length;
    const before = toolCalls().length;
    p.model.script(
      { tool_calls: [{ name: 'delegate_task', arguments: { goal: 'look around' } }] },
      { tool_calls: [{ name: 'terminal', arguments: { command: 'echo from-child' }, id: 'call_child' }] },
      { content: 'child done' },
      { content: 'parent done' },
    );
    expect(await localTurn('boss', 'delegate something')).toBe('parent done');
    expect(offered(first)).toEqual(['read_file', 'delegate_task']);
    expect(offered(first + 1)).toEqual(['read_file']); // the child: no delegation, nothing outside the parent's set
    const childTool = p.model.requests[first + 2]!.body.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(childTool.content!).error).toMatch(
      /^Tool 'terminal' is not available in this chat: tool set tools\.chats\["local:boss"\]/,
    );
    // pre_tool_call fired for the child's refused call too (the subagent whitelist is a different rule).
    const calls = toolCalls().slice(before);
    expect(calls.filter((c) => c.hook === 'pre_tool_call').map((c) => c.tool_name)).toEqual(['delegate_task', 'terminal']);
  });
});

describe('chatToolSetsFromConfig', () => {
  it('takes the most specific entry: chat, platform, default, then all', () => {
    const sets = chatToolSetsFromConfig({ tools: { default: ['read_file'], telegram: 'all', chats: { 'telegram:1': [] } } });
    expect(sets.forChat('telegram', '1')).toEqual({ names: new Set(), source: 'tools.chats["telegram:1"]' });
    expect(sets.forChat('telegram', '2')).toEqual({ names: 'all', source: 'tools.telegram' });
    expect(sets.forChat('slack', '2')).toEqual({ names: new Set(['read_file']), source: 'tools.default' });
    expect(chatToolSetsFromConfig({}).forChat('slack', '2').names).toBe('all');
  });

  it('closes a malformed entry (with a warning) instead of opening it', () => {
    const logger = createMemoryLogger();
    const sets = chatToolSetsFromConfig({ tools: { discord: 'terminal', slack: [1], chats: { 'local:x': ['nope'] } } }, logger);
    expect(sets.forChat('discord', '1').names).toEqual(new Set());
    expect(sets.forChat('slack', '1').names).toEqual(new Set());
    expect(sets.forChat('local', 'x').names).toEqual(new Set(['nope']));
    const warnings = logger.lines
      .filter((l) => l.level === 'warn')
      .map((l) => l.message)
      .join('\n');
    expect(warnings).toMatch(/tools\.discord must be a list of tool names or "all"/);
    expect(warnings).toMatch(/tools\.slack must be a list/);
    expect(warnings).toMatch(/tools\.chats\["local:x"\] names an unknown tool "nope"/);
    expect(chatToolSetsFromConfig({ tools: ['terminal'] }).forChat('local', 'x').names).toEqual(new Set());
  });

  it('knows the built-in tools by the names the agent has', () => {
    expect([...BUILTIN_TOOL_NAMES]).toEqual([...BUILTIN_TOOLS.keys()]);
  });
});
