import { describe, expect, it } from 'vitest';
import { DynamoAllowlistStore } from '../../src/store/dynamo-allowlist-store.ts';
import { createDynamoTable } from '../../src/store/dynamo-table.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { AllowlistEntry } from '../../src/hooks/shell/consent/allowlist-store.ts';
import { withTable } from './with-table.ts';
import { describeAllowlistContract } from '../support/allowlist-contract.ts';

const entry = (event: string, command: string, approved_at = '2026-01-01T00:00:00Z'): AllowlistEntry => ({
  event,
  command,
  approved_at,
  script_mtime_at_approval: null,
});

let scopes = 0;
const { table, aws } = withTable();

// The same contract the file store passes (helper B's suite), each store in a fresh scope.
describeAllowlistContract('DynamoDB store', async () => new DynamoAllowlistStore(table(), { scope: `contract-${scopes++}` }));

describe('DynamoAllowlistStore', () => {
  it('keeps one entry per (event, command), re-approval replacing and moving it to the end', async () => {
    const store = new DynamoAllowlistStore(table());
    expect(store.location).toBe(`dynamodb://${table().tableName}`);
    expect(new DynamoAllowlistStore(table(), { scope: 'x' }).location).toBe(`dynamodb://${table().tableName}#x`);
    expect(await store.record(entry('pre_tool_call', '/h/a.sh'))).toBe(true);
    expect(await store.record(entry('post_tool_call', '/h/a.sh'))).toBe(true);
    expect(await store.record({ ...entry('pre_tool_call', '/h/b#x.sh'), script_sha256_at_approval: 'ab' })).toBe(true);
    expect(await store.record(entry('pre_tool_call', '/h/a.sh', '2026-02-02T00:00:00Z'))).toBe(true);
    const listed = await store.list();
    expect(listed.map((e) => [e.event, e.command])).toEqual([
      ['post_tool_call', '/h/a.sh'],
      ['pre_tool_call', '/h/b#x.sh'],
      ['pre_tool_call', '/h/a.sh'],
    ]);
    expect(await store.find('pre_tool_call', '/h/a.sh')).toEqual(entry('pre_tool_call', '/h/a.sh', '2026-02-02T00:00:00Z'));
    expect((await store.find('pre_tool_call', '/h/b#x.sh'))?.script_sha256_at_approval).toBe('ab');
    expect(await store.find('pre_tool_call', '/h/nope.sh')).toBeUndefined();
  });

  it('revoke removes every entry of a command, compared exactly', async () => {
    const store = new DynamoAllowlistStore(table());
    await store.record(entry('pre_llm_call', '/h/c.sh'));
    await store.record(entry('post_llm_call', '/h/c.sh'));
    await store.record(entry('post_llm_call', '/h/c.sh '));
    expect(await store.revoke('/h/c.sh')).toBe(2);
    expect(await store.revoke('/h/c.sh')).toBe(0);
    expect(await store.find('post_llm_call', '/h/c.sh ')).toBeDefined();
  });

  it('reports a failure to persist as false with a warning, never a throw', async () => {
    const logger = createMemoryLogger();
    const broken = createDynamoTable({
      tableName: 'no-such-table',
      client: { endpoint: aws().dynamodbEndpoint, region: aws().region, credentials: aws().credentials, maxAttempts: 1 },
    });
    const store = new DynamoAllowlistStore(broken, { logger });
    expect(await store.record(entry('pre_tool_call', '/h/a.sh'))).toBe(false);
    expect(logger.lines.some((l) => l.level === 'warn' && l.message.includes('dynamodb://no-such-table'))).toBe(true);
    broken.doc.destroy();
  });
});
