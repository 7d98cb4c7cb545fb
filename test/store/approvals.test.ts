import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoApprovalStore, STATE_PART_BYTES } from '../../src/store/dynamo-approval-store.ts';
import { createDynamoTable } from '../../src/store/dynamo-table.ts';
import type { PendingApproval } from '../../src/store/approval-store.ts';
import { lossyTable } from './lossy-table.ts';
import { withTable } from './with-table.ts';

const pending = (id: string, sessionKey = 'telegram:1:'): PendingApproval => ({
  approval_id: id,
  session_key: sessionKey,
  session_id: 'sess-1',
  turn_id: 'turn-1',
  command: 'rm -rf /tmp/x',
  description: 'recursive delete',
  pattern_key: 'rm_rf',
  pattern_keys: ['rm_rf'],
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-01T00:05:00.000Z',
  requested_by: { platform: 'telegram', chat_id: '1', user_id: '42' },
  state: { messages: [{ role: 'user', content: 'x' }], iteration: 2, nested: { empty: '', list: [] } },
});

describe('DynamoApprovalStore', () => {
  const { table, aws } = withTable();

  it('stores a pending approval with its opaque state and finds it per conversation', async () => {
    const approvals = new DynamoApprovalStore(table());
    await approvals.putPending(pending('a1'));
    const { state: _state, ...withoutState } = pending('a1');
    // What the gateway reads (pending, summary): the approval without the suspended turn's state.
    expect(await approvals.pending('telegram:1:')).toEqual(withoutState);
    expect(await approvals.summary('a1')).toEqual(withoutState);
    expect(await approvals.get('a1')).toEqual(pending('a1'));
    expect(await approvals.pending('telegram:other:')).toBeUndefined();
  });

  it("reads a summary without the state kept on the item: its answer, and a few hundred bytes, not the state's", async () => {
    const approvals = new DynamoApprovalStore(table());
    // A state that stays inline (≈ 50 KB of JSON), as most suspended turns' do.
    const state = { messages: [{ role: 'tool', tool_call_id: 'c', content: 'y'.repeat(50_000) }], iteration: 1 };
    await approvals.putPending({ ...pending('a-summary', 'telegram:summary:'), state });
    await approvals.answer('a-summary', 'always', new Date(), { answered_by: 'telegram:9', global: true });
    await approvals.markResumed('a-summary');
    // The answers' sizes, through a client of its own.
    const counted = createDynamoTable({
      tableName: aws().tableName,
      client: { endpoint: aws().dynamodbEndpoint, region: aws().region, credentials: aws().credentials },
    });
    const sizes: number[] = [];
    counted.doc.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        sizes.push(Number((out.response as { headers: Record<string, string> }).headers['content-length']));
        return out;
      },
      { step: 'deserialize', priority: 'low', name: 'answerSize' },
    );
    try {
      const summary = await new DynamoApprovalStore(counted).summary('a-summary');
      const { state: _state, ...withoutState } = pending('a-summary', 'telegram:summary:');
      expect(summary).toEqual({
        ...withoutState,
        choice: 'always',
        answered_by: 'telegram:9',
        global: true,
        resumed_at: expect.any(String),
      });
      expect(sizes).toHaveLength(1);
      expect(sizes[0]).toBeLessThan(2_000);
      // The whole approval, state and all, is what `get` reads.
      expect((await new DynamoApprovalStore(counted).get('a-summary'))?.state).toEqual(state);
      expect(sizes[1]).toBeGreaterThan(50_000);
    } finally {
      counted.doc.destroy();
    }
  });

  it('an answer stored but whose reply was lost, then sent again by the SDK, is still this answer (and drops the pointer)', async () => {
    await new DynamoApprovalStore(table()).putPending(pending('a-lost', 'telegram:lost:'));
    const { table: lossy, lost } = lossyTable(aws(), 'UpdateItem');
    try {
      expect(await new DynamoApprovalStore(lossy).answer('a-lost', 'once', new Date(), { answered_by: 'telegram:42' })).toBe(
        true,
      );
      expect(lost()).toBe(1);
    } finally {
      lossy.doc.destroy();
    }
    const approvals = new DynamoApprovalStore(table());
    expect(await approvals.summary('a-lost')).toMatchObject({ choice: 'once', answered_by: 'telegram:42' });
    expect(await approvals.pending('telegram:lost:')).toBeUndefined();
    // Another answer still loses to it.
    expect(await approvals.answer('a-lost', 'deny')).toBe(false);
  });

  it("keeps a suspended turn's state far past DynamoDB's 400 KB item limit (tool results in its messages), gzipped", async () => {
    const approvals = new DynamoApprovalStore(table());
    // Four 100 KB file reads, as a turn that read them before asking: as text, the put failed.
    const file = Array.from({ length: 2_000 }, (_, i) => `line ${i}: const value${i} = compute(${i}, "${'x'.repeat(20)}");`).join(
      '\n',
    );
    const messages = Array.from({ length: 4 }, (_, i) => ({
      role: 'tool',
      tool_call_id: `c${i}`,
      content: file.slice(0, 100_000),
    }));
    const big = { ...pending('a-big', 'telegram:big:'), state: { messages, iteration: 5 } };
    expect(JSON.stringify(big.state).length).toBeGreaterThan(400_000);
    await approvals.putPending(big);
    expect(await approvals.get('a-big')).toEqual(big);
    expect(await approvals.pending('telegram:big:')).toEqual({ ...big, state: undefined });
  });

  it("keeps a state that is over DynamoDB's 400 KB item limit even gzipped, in parts (tool output that does not compress)", async () => {
    const approvals = new DynamoApprovalStore(table());
    // Twenty 50 KB outputs of random base64 (what `head -c 37500 /dev/urandom | base64 -w0` prints):
    // gzip keeps ≈ 75 % of it, ≈ 750 KB, so the one item the put wrote was refused, and the turn
    // failed with it, at every retry.
    const messages = Array.from({ length: 20 }, (_, i) => ({
      role: 'tool',
      tool_call_id: `c${i}`,
      content: randomBytes(37_500).toString('base64'),
    }));
    const big = { ...pending('a-huge', 'telegram:huge:'), state: { messages, iteration: 20 } };
    expect(gzipSync(JSON.stringify(big.state)).length).toBeGreaterThan(2 * STATE_PART_BYTES);
    await approvals.putPending(big);
    expect(await approvals.get('a-huge')).toEqual(big);
    expect(await approvals.pending('telegram:huge:')).toEqual({ ...big, state: undefined });
    expect(await approvals.answer('a-huge', 'once')).toBe(true);
    expect(await approvals.get('a-huge')).toEqual({ ...big, choice: 'once' });
    expect(await approvals.summary('a-huge')).toEqual({ ...big, state: undefined, choice: 'once' });
  });

  it('refuses to read a state whose parts are not all there, rather than resume a turn from part of it', async () => {
    const approvals = new DynamoApprovalStore(table());
    const messages = [{ role: 'tool', tool_call_id: 'c', content: randomBytes(700_000).toString('base64') }];
    await approvals.putPending({ ...pending('a-torn', 'telegram:torn:'), state: { messages } });
    await table().doc.send(
      new DeleteCommand({ TableName: table().tableName, Key: { PK: 'APPROVAL#a-torn', SK: 'STATE#00001' } }),
    );
    await expect(approvals.get('a-torn')).rejects.toThrow(/the state of approval a-torn has 2 of its 3 parts/);
    // The gateway's reads do not touch the parts: /status and /approve still see the approval.
    expect(await approvals.pending('telegram:torn:')).toMatchObject({ approval_id: 'a-torn' });
  });

  it('lets the first of concurrent answers win, then is no longer pending', async () => {
    const approvals = new DynamoApprovalStore(table());
    await approvals.putPending(pending('a2', 'slack:2:'));
    const choices = ['once', 'deny', 'session', 'always', 'timeout'] as const;
    const results = await Promise.all(choices.map((c) => approvals.answer('a2', c)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = choices[results.indexOf(true)];
    expect((await approvals.get('a2'))?.choice).toBe(winner);
    expect(await approvals.pending('slack:2:')).toBeUndefined();
    expect(await approvals.answer('a2', 'once')).toBe(false);
    expect(await approvals.answer('missing', 'once')).toBe(false);
  });

  it('keeps session grants per session id, always grants per chat, global grants everywhere, and clears a session', async () => {
    const approvals = new DynamoApprovalStore(table());
    const at = (session_id: string, chat_id = 'c1', platform = 'telegram') => ({ session_id, platform, chat_id });
    await approvals.grant({ kind: 'session', session_id: 'sess-A' }, 'rm_rf');
    await approvals.grant({ kind: 'chat', platform: 'telegram', chat_id: 'c1' }, 'curl_pipe_sh');
    await approvals.grant({ kind: 'global' }, 'sudo');
    expect(await approvals.isGranted('rm_rf', at('sess-A'))).toBe(true);
    expect(await approvals.isGranted('rm_rf', at('sess-B'))).toBe(false);
    expect(await approvals.isGranted('curl_pipe_sh', at('sess-B'))).toBe(true);
    // The same chat id on another platform, or another chat, is not covered.
    expect(await approvals.isGranted('curl_pipe_sh', at('sess-B', 'c1', 'slack'))).toBe(false);
    expect(await approvals.isGranted('curl_pipe_sh', at('sess-B', 'c2'))).toBe(false);
    expect(await approvals.isGranted('sudo', at('sess-Z', 'elsewhere', 'discord'))).toBe(true);
    await approvals.putPending({ ...pending('a3', 'wa:3:'), session_id: 'sess-A' });
    await approvals.clearSession('wa:3:', 'sess-A');
    expect(await approvals.isGranted('rm_rf', at('sess-A'))).toBe(false);
    expect(await approvals.isGranted('curl_pipe_sh', at('sess-A'))).toBe(true);
    expect(await approvals.pending('wa:3:')).toBeUndefined();
  });

  it('records who answered, and a resume once', async () => {
    const approvals = new DynamoApprovalStore(table());
    await approvals.putPending(pending('a4', 'telegram:4:'));
    expect(await approvals.answer('a4', 'always', new Date(), { answered_by: 'telegram:9', global: true })).toBe(true);
    expect(await approvals.get('a4')).toMatchObject({
      choice: 'always',
      answered_by: 'telegram:9',
      global: true,
      requested_by: { user_id: '42' },
    });
    expect((await approvals.get('a4'))?.resumed_at).toBeUndefined();
    expect(await approvals.markResumed('a4')).toBe(true);
    expect(await approvals.markResumed('a4')).toBe(false);
    expect((await approvals.get('a4'))?.resumed_at).toEqual(expect.any(String));
  });
});
