import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TurnMessage } from '../../src/pipeline/turn-message.ts';
import { startTurnHarness, type HookCall, type TurnHarness } from './support/turn-harness.ts';

const TAG = 'telemetry_schema_version';
const DANGEROUS = 'mkdir -p scratch && chmod -R 777 scratch && echo opened';
const hooksOf = (calls: HookCall[]) => calls.map((c) => c.hook).filter((h) => h !== 'agent:step');

let h: TurnHarness;
beforeAll(async () => {
  h = await startTurnHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.takeCalls();
  h.replies.length = 0;
  delete h.deps.approvalTimeoutSeconds;
});

/** First invocation: a turn whose tool call needs approval. */
async function suspendIn(chat: string, command = DANGEROUS) {
  h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command }, id: `call_${chat}` }] });
  const result = await h.say('please open it up', chat);
  expect(result.outcome).toBe('suspended');
  const pending = await h.plane.approvals.pending(`local:${chat}`);
  expect(pending).toBeDefined();
  return { result, pending: pending! };
}

/** What the gateway does on /approve or /deny: record the answer, enqueue the resume. */
async function answer(chat: string, approvalId: string, choice: 'once' | 'session' | 'always' | 'deny') {
  expect(await h.plane.approvals.answer(approvalId, choice)).toBe(true);
  const message: TurnMessage = {
    v: 1,
    kind: 'approval',
    delivery_id: `d-${approvalId}`,
    session_key: `local:${chat}`,
    received_at: new Date().toISOString(),
    approval_id: approvalId,
    choice,
  };
  const out = await h.invoke(message);
  expect(out.batchItemFailures).toEqual([]);
  return h.results.at(-1)!;
}

describe('a dangerous command', () => {
  it('suspends the turn: pre_approval_request, a question in the chat, state persisted; /approve resumes it in a new invocation', async () => {
    const { result, pending } = await suspendIn('approve');
    let calls = await h.takeCalls();
    expect(hooksOf(calls)).toEqual([
      'session:start',
      'agent:start',
      'on_session_start',
      'pre_llm_call',
      'pre_api_request',
      'post_api_request',
      'pre_tool_call',
      'pre_approval_request',
    ]);
    const pre = calls.find((c) => c.hook === 'pre_approval_request')!;
    expect(pre.keys).toEqual(['command', 'description', 'pattern_key', 'pattern_keys', 'session_key', 'surface', TAG]);
    expect(pre.kwargs).toMatchObject({
      command: DANGEROUS,
      pattern_key: 'world_writable_chmod',
      pattern_keys: ['world_writable_chmod'],
      session_key: 'local:approve',
      surface: 'gateway',
    });
    expect(h.replies.at(-1)!.text).toContain('/approve');
    expect(h.replies.at(-1)!.text).toContain(DANGEROUS);
    expect(pending).toMatchObject({ turn_id: result.turn_id, command: DANGEROUS, pattern_key: 'world_writable_chmod' });

    h.model.script({ content: 'opened it' });
    const resumed = await answer('approve', pending.approval_id, 'once');
    expect(resumed).toMatchObject({ turn_id: result.turn_id, outcome: 'completed', response: 'opened it' });
    calls = await h.takeCalls();
    expect(hooksOf(calls)).toEqual([
      'post_approval_response',
      'transform_terminal_output',
      'post_tool_call',
      'transform_tool_result',
      'pre_api_request',
      'post_api_request',
      'transform_llm_output',
      'post_llm_call',
      'on_session_end',
      'agent:end',
    ]);
    const post = calls.find((c) => c.hook === 'post_approval_response')!;
    expect(post.keys).toEqual(['command', 'description', 'pattern_key', 'pattern_keys', 'session_key', 'surface', 'choice', TAG]);
    expect(post.kwargs.choice).toBe('once');
    const tool = calls.find((c) => c.hook === 'post_tool_call')!;
    expect(tool.kwargs).toMatchObject({ status: 'ok', turn_id: result.turn_id, tool_call_id: 'call_approve' });
    expect(JSON.parse(tool.kwargs.result)).toEqual({ output: 'opened\n', exit_code: 0, error: null });
    // agent:end is built from agent:start's context as emitted in the first invocation.
    expect(calls.find((c) => c.hook === 'agent:end')!.kwargs).toMatchObject({
      chat_id: 'approve',
      message: 'please open it up',
      response: 'opened it',
    });
    const stored = await h.plane.transcripts.load(pending.session_id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await h.plane.approvals.pending('local:approve')).toBeUndefined();

    // A redelivered resume (same message again) does not run the turn twice.
    await h.invoke({
      v: 1,
      kind: 'approval',
      delivery_id: `d-${pending.approval_id}`,
      session_key: 'local:approve',
      received_at: new Date().toISOString(),
      approval_id: pending.approval_id,
      choice: 'once',
    });
    expect(h.results.at(-1)).toMatchObject({ outcome: 'ignored', reason: 'already resumed' });
    expect(await h.takeCalls()).toEqual([]);

    // The timeout timer of an answered approval is a no-op.
    await h.invoke({
      v: 1,
      kind: 'approval',
      delivery_id: 'late',
      session_key: 'local:approve',
      received_at: new Date().toISOString(),
      approval_id: pending.approval_id,
      choice: 'timeout',
    });
    expect(h.results.at(-1)).toMatchObject({ outcome: 'ignored', reason: 'already answered' });
    expect(await h.takeCalls()).toEqual([]);
  });

  it('/deny resumes with an error result the model sees, and the command never runs', async () => {
    const { pending } = await suspendIn('deny', 'touch denied-marker && sudo true');
    await h.takeCalls();
    h.model.script({ content: 'ok, not running it' });
    const resumed = await answer('deny', pending.approval_id, 'deny');
    expect(resumed.outcome).toBe('completed');
    const calls = await h.takeCalls();
    expect(calls.find((c) => c.hook === 'post_approval_response')!.kwargs.choice).toBe('deny');
    const tool = calls.find((c) => c.hook === 'post_tool_call')!;
    expect(tool.kwargs).toMatchObject({
      status: 'error',
      error_type: 'tool_error',
      error_message: 'The user denied this command.',
    });
    expect(h.model.requests.at(-1)!.body.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: '{"error": "The user denied this command."}',
    });
    const { existsSync } = await import('node:fs');
    expect(existsSync(`${h.deps.workspaceRoot}/${pending.session_id.replace(/[^A-Za-z0-9._-]/g, '_')}/denied-marker`)).toBe(
      false,
    );
  });

  it('suspends and resumes a turn whose tool output does not compress under the 400 KB item limit', async () => {
    // Sixteen ≈ 50 KB outputs of random base64 before the dangerous command: ≈ 600 KB gzipped.
    const noise = Array.from({ length: 16 }, (_, i) => ({
      name: 'terminal',
      arguments: { command: 'head -c 37000 /dev/urandom | base64 -w0' },
      id: `call_noise_${i}`,
    }));
    h.model.script({ tool_calls: [...noise, { name: 'terminal', arguments: { command: DANGEROUS }, id: 'call_big' }] });
    const result = await h.say('please open it up', 'big-state');
    expect(result.outcome).toBe('suspended');
    const pending = (await h.plane.approvals.pending('local:big-state'))!;
    expect(pending).not.toHaveProperty('state'); // what the gateway reads: no parts, no gunzip
    const stored = (await h.plane.approvals.get(pending.approval_id))!;
    expect(JSON.stringify(stored.state).length).toBeGreaterThan(800_000);
    await h.takeCalls();
    h.model.script({ content: 'opened it' });
    const resumed = await answer('big-state', pending.approval_id, 'once');
    expect(resumed).toMatchObject({ turn_id: result.turn_id, outcome: 'completed', response: 'opened it' });
    const transcript = await h.plane.transcripts.load(pending.session_id);
    expect(transcript.filter((m) => m.role === 'tool')).toHaveLength(17);
    expect(transcript.at(-2)).toMatchObject({ role: 'tool', content: expect.stringContaining('opened') });
  });

  it('no answer: the delayed timer comes back through the timers queue, is forwarded to the turns queue, and resumes with timeout', async () => {
    h.deps.approvalTimeoutSeconds = 1;
    const { pending } = await suspendIn('timeout');
    await h.takeCalls();
    const sqs = h.plane.clients.sqs;
    const timer = await receiveOne(sqs, h.aws.timersQueueUrl);
    expect(JSON.parse(timer.Body!)).toMatchObject({
      kind: 'timer',
      message: { kind: 'approval', approval_id: pending.approval_id, choice: 'timeout' },
    });
    await waitUntil(JSON.parse(timer.Body!).fire_at);
    expect((await h.invoke(JSON.parse(timer.Body!))).batchItemFailures).toEqual([]);
    const forwarded = await receiveOne(sqs, h.aws.turnsQueueUrl);
    expect(forwarded.Attributes?.MessageGroupId).toBe('local:timeout');
    h.model.script({ content: 'timed out, skipped it' });
    expect((await h.invoke(JSON.parse(forwarded.Body!))).batchItemFailures).toEqual([]);
    expect(h.results.at(-1)).toMatchObject({ outcome: 'completed', response: 'timed out, skipped it' });
    const calls = await h.takeCalls();
    expect(calls.find((c) => c.hook === 'post_approval_response')!.kwargs.choice).toBe('timeout');
    expect(calls.find((c) => c.hook === 'post_tool_call')!.kwargs.error_message).toContain('timed out');
    // A late /approve loses: the store's first answer was the timeout.
    expect(await h.plane.approvals.answer(pending.approval_id, 'once')).toBe(false);
  });

  it('/approve session remembers the grant for this session only; /approve always for this chat only', async () => {
    const first = await suspendIn('grant');
    h.model.script({ content: 'done once' });
    await answer('grant', first.pending.approval_id, 'session');
    await h.takeCalls();
    // Same session, same kind of command: runs without asking.
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: DANGEROUS } }] }, { content: 'again' });
    expect((await h.say('again', 'grant')).outcome).toBe('completed');
    expect(hooksOf(await h.takeCalls())).not.toContain('pre_approval_request');
    // Another conversation still asks; answer "always" there.
    const other = await suspendIn('grant-other');
    h.model.script({ content: 'fine' });
    await answer('grant-other', other.pending.approval_id, 'always');
    await h.takeCalls();
    // The always grant covers that chat, also in a new session there (/new)…
    const key = 'local:grant-other';
    const { old, current } = await h.plane.sessions.rotate(key, {
      platform: 'local',
      chat_id: 'grant-other',
      thread_id: '',
      user_id: 'u1',
      chat_type: 'dm',
    });
    expect(current.session_id).not.toBe(old?.session_id);
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: DANGEROUS } }] }, { content: 'no question' });
    expect((await h.say('same chat', 'grant-other')).outcome).toBe('completed');
    expect(hooksOf(await h.takeCalls())).not.toContain('pre_approval_request');
    // …but not another chat: a grant given there is not a grant here.
    await suspendIn('grant-third');
  });

  it('an always grant given by an approver globally covers every chat', async () => {
    const { pending } = await suspendIn('global-grant', 'sudo true');
    h.model.script({ content: 'fine' });
    expect(
      await h.plane.approvals.answer(pending.approval_id, 'always', new Date(), { answered_by: 'local:root', global: true }),
    ).toBe(true);
    await h.invoke({
      v: 1,
      kind: 'approval',
      delivery_id: `d-${pending.approval_id}`,
      session_key: 'local:global-grant',
      received_at: new Date().toISOString(),
      approval_id: pending.approval_id,
      choice: 'always',
    });
    await h.takeCalls();
    h.model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'sudo true' } }] }, { content: 'no question' });
    expect((await h.say('elsewhere', 'global-grant-elsewhere')).outcome).toBe('completed');
    expect(hooksOf(await h.takeCalls())).not.toContain('pre_approval_request');
  });

  it('resumes exactly its own turn when another turn reused the same tool-call id in between (approve and timeout)', async () => {
    for (const choice of ['once', 'timeout'] as const) {
      const chat = `reused-${choice}`;
      const { pending, result } = await suspendIn(chat);
      // Another turn in the same conversation, whose tool call carries the same id.
      h.model.script(
        { tool_calls: [{ name: 'terminal', arguments: { command: 'echo hi' }, id: `call_${chat}` }] },
        { content: 'hi' },
      );
      expect((await h.say('run something harmless', chat)).outcome).toBe('completed');
      await h.takeCalls();
      h.replies.length = 0;
      h.model.script({ content: choice === 'once' ? 'opened it' : 'skipped it' });
      if (choice === 'once') expect(await h.plane.approvals.answer(pending.approval_id, 'once')).toBe(true);
      const message: TurnMessage = {
        v: 1,
        kind: 'approval',
        delivery_id: `d-${chat}`,
        session_key: `local:${chat}`,
        received_at: new Date().toISOString(),
        approval_id: pending.approval_id,
        choice,
      };
      expect((await h.invoke(message)).batchItemFailures).toEqual([]);
      expect(h.results.at(-1)).toMatchObject({ turn_id: result.turn_id, outcome: 'completed' });
      expect(h.replies.map((r) => r.text)).toEqual([choice === 'once' ? 'opened it' : 'skipped it']);
      const tool = (await h.takeCalls()).find((c) => c.hook === 'post_tool_call')!;
      if (choice === 'once') expect(JSON.parse(tool.kwargs.result)).toEqual({ output: 'opened\n', exit_code: 0, error: null });
      else expect(tool.kwargs.error_message).toContain('timed out');
      // Redelivered, it is still ignored once.
      await h.invoke({ ...message, delivery_id: `d2-${chat}` });
      expect(h.results.at(-1)).toMatchObject({ outcome: 'ignored' });
    }
  });

  it('a harmless command never asks', async () => {
    h.model.script(
      { tool_calls: [{ name: 'terminal', arguments: { command: 'rm -rf ./build-output' } }] },
      { content: 'cleaned' },
    );
    expect((await h.say('clean', 'harmless')).outcome).toBe('completed');
  });
});

async function receiveOne(sqs: TurnHarness['plane']['clients']['sqs'], queueUrl: string) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 1,
        WaitTimeSeconds: 2,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const message = out.Messages?.[0];
    if (message) {
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      return message;
    }
  }
  throw new Error(`nothing arrived on ${queueUrl}`);
}

async function waitUntil(iso: string) {
  const wait = Date.parse(iso) - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 20));
}
