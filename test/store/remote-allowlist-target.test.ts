import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoTable } from '../../src/store/dynamo-table.ts';
import { DynamoAllowlistStore } from '../../src/store/dynamo-allowlist-store.ts';
import { resolveAllowlistStore } from '../../src/cli/allowlist-target.ts';
import { describeHookgateStack, StackLookupError } from '../../src/cli/stack-resources.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { withTable } from './with-table.ts';
import { runCliInProcess } from '../support/run-cli.ts';

/** A CloudFormation endpoint speaking the real query protocol, for DescribeStackResources only. */
function fakeCloudFormation(stacks: Record<string, { logical: string; physical: string; type: string }[]>): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const resources = stacks[form.get('StackName') ?? ''];
      res.setHeader('content-type', 'text/xml');
      if (form.get('Action') !== 'DescribeStackResources' || !resources) {
        res.statusCode = 400;
        res.end(
          `<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id ${form.get('StackName')} does not exist</Message></Error><RequestId>r</RequestId></ErrorResponse>`,
        );
        return;
      }
      const members = resources
        .map(
          (r) =>
            `<member><StackName>${form.get('StackName')}</StackName><LogicalResourceId>${r.logical}</LogicalResourceId><PhysicalResourceId>${r.physical}</PhysicalResourceId><ResourceType>${r.type}</ResourceType><Timestamp>2026-01-01T00:00:00Z</Timestamp><ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>`,
        )
        .join('');
      res.end(
        `<DescribeStackResourcesResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStackResourcesResult><StackResources>${members}</StackResources></DescribeStackResourcesResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></DescribeStackResourcesResponse>`,
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('remote allowlist: --table / --stack', () => {
  const { table, aws } = withTable();
  let cfn: Server;
  let home: string;
  let awsEnv: Record<string, string>;
  const saved = { ...process.env };

  beforeAll(async () => {
    cfn = await fakeCloudFormation({
      hookgate: [
        { logical: 'TableCD117FA1', physical: table().tableName, type: 'AWS::DynamoDB::GlobalTable' },
        { logical: 'EventsDlq2E1D4E69', physical: 'https://sqs.example/123/dlq', type: 'AWS::SQS::Queue' },
        { logical: 'EventsTopic4E5B6F0B', physical: 'arn:aws:sns:x', type: 'AWS::SNS::Topic' },
      ],
    });
    home = await mkdtemp(join(tmpdir(), 'hookgate-remote-'));
    awsEnv = {
      AWS_ENDPOINT_URL_CLOUDFORMATION: `http://127.0.0.1:${(cfn.address() as AddressInfo).port}`,
      AWS_ENDPOINT_URL_DYNAMODB: aws().dynamodbEndpoint,
      AWS_REGION: aws().region,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    Object.assign(process.env, awsEnv);
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise((r) => cfn?.close(r));
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('finds the table of a stack through CloudFormation', async () => {
    expect(await describeHookgateStack('hookgate')).toEqual({
      tableName: table().tableName,
      eventsDlqUrl: 'https://sqs.example/123/dlq',
    });
    await expect(describeHookgateStack('missing')).rejects.toBeInstanceOf(StackLookupError);
    await expect(describeHookgateStack('missing')).rejects.toThrow(/does not exist/);
  });

  it('resolves --table and --stack to the DynamoDB allowlist, and the file store otherwise', async () => {
    const logger = createMemoryLogger();
    const byTable = await resolveAllowlistStore({ home, logger, table: table().tableName });
    expect(byTable.location).toBe(`dynamodb://${table().tableName}`);
    const byStack = await resolveAllowlistStore({ home, logger, stack: 'hookgate' });
    expect(byStack.location).toBe(`dynamodb://${table().tableName}`);
    const local = await resolveAllowlistStore({ home, logger });
    expect(local.location).toContain(home);
  });

  it('hookgate hooks approve --stack writes the deployed allowlist', async () => {
    const out = await runCliInProcess(
      ['hooks', 'approve', 'pre_tool_call', '/hooks/guard.sh', '--yes', '--stack', 'hookgate', '--home', home],
      { env: awsEnv },
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`dynamodb://${table().tableName}`);
    const entry = await new DynamoAllowlistStore(
      createDynamoTable({
        tableName: table().tableName,
        client: { endpoint: aws().dynamodbEndpoint, region: aws().region, credentials: aws().credentials },
      }),
    ).find('pre_tool_call', '/hooks/guard.sh');
    expect(entry?.event).toBe('pre_tool_call');
  });
});
