import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { MAX_RECEIVE_COUNT } from '../../src/pipeline/topology.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { writeDevEndpoints } from '../../src/local/dev-endpoints.ts';
import { startTestAws } from '../support/local-aws.ts';
import { runCliInProcess } from '../support/run-cli.ts';

describe('hookgate dlq', () => {
  let aws: RunningEmulators;
  let sqs: SQSClient;
  let home: string;
  const envelope = (id: string) =>
    JSON.stringify({
      v: 1,
      id,
      type: 'agent:step',
      occurred_at: '2026-01-01T00:00:00.000Z',
      session_id: null,
      turn_id: null,
      payload: {},
    });
  // In-process (the commander program of bin/hookgate.js, without a tsx start per call).
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCliInProcess(args, { env: { HOOKGATE_HOME: home, ...env } });
  const count = async (queueUrl: string) => {
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    return Number(Attributes!.ApproximateNumberOfMessages);
  };

  beforeAll(async () => {
    aws = await startTestAws();
    sqs = new SQSClient({ endpoint: aws.sqsEndpoint, region: aws.region, credentials: aws.credentials });
    home = await mkdtemp(join(tmpdir(), 'hookgate-dlq-'));
    // This test process plays the running `hookgate dev` whose emulators the CLI finds.
    await writeDevEndpoints(home, { ...aws, gatewayUrl: 'http://127.0.0.1:1', pid: process.pid });
    for (const id of ['e-1', 'e-2'])
      await sqs.send(new SendMessageCommand({ QueueUrl: aws.eventsDlqUrl, MessageBody: envelope(id) }));
  });
  afterAll(async () => {
    sqs?.destroy();
    await aws?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('lists, replays one by id, and purges the events DLQ of the running hookgate dev', async () => {
    const list = await cli(['dlq', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^e-1\tagent:step\treceives=\d+\tsent=\S+\tmessage=\S+$/m);
    expect(list.stdout).toContain('2 message(s) in the DLQ');

    const replay = await cli(['dlq', 'replay', '--id', 'e-2']);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('replayed 1 message(s)');
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.eventsQueueUrl, WaitTimeSeconds: 1 }));
    expect(Messages.map((m) => JSON.parse(m.Body!).id)).toEqual(['e-2']);

    const missing = await cli(['dlq', 'replay', '--id', 'nope', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no message with id nope');

    const purge = await cli(['dlq', 'purge']);
    expect(purge.stdout).toContain('purged 1 message(s)');
    expect(await count(aws.eventsDlqUrl)).toBe(0);
  });

  it('works on a queue URL given outright, through AWS_ENDPOINT_URL_SQS and the standard credential chain', async () => {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: aws.turnsDlqUrl,
        MessageBody: '{"delivery_id":"d-9","kind":"message"}',
        MessageGroupId: 'g',
        MessageDeduplicationId: 'x',
      }),
    );
    const list = await cli(['dlq', 'list', '--queue-url', aws.turnsDlqUrl, '--json'], {
      HOOKGATE_HOME: join(home, 'nothing-running'),
      AWS_ENDPOINT_URL_SQS: aws.sqsEndpoint,
      AWS_REGION: aws.region,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject([{ id: 'd-9', type: 'message' }]);
    const replay = await cli(['dlq', 'replay', '--queue-url', aws.turnsDlqUrl], {
      HOOKGATE_HOME: join(home, 'nothing-running'),
      AWS_ENDPOINT_URL_SQS: aws.sqsEndpoint,
    });
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(/replay needs the source queue URL/);
  });

  it('a timer that keeps failing leaves for the timers DLQ, as in the stack; --queue timers lists and replays it by its delivery id', async () => {
    const timer = JSON.stringify({
      v: 1,
      kind: 'timer',
      fire_at: '2026-01-01T00:05:00.000Z',
      message: { v: 1, kind: 'approval', delivery_id: 'd-timer-1' },
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: aws.timersQueueUrl, MessageBody: timer }));
    // Received and never deleted, as by a consumer that throws each time, until the redrive moves it.
    let receives = 0;
    for (let i = 0; i < 4 * MAX_RECEIVE_COUNT && (await count(aws.timersDlqUrl)) === 0; i++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: aws.timersQueueUrl, VisibilityTimeout: 0, WaitTimeSeconds: 1 }),
      );
      receives += Messages.length;
    }
    expect(receives).toBe(MAX_RECEIVE_COUNT);
    expect(await count(aws.timersDlqUrl)).toBe(1);

    const list = await cli(['dlq', '--queue', 'timers', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^d-timer-1\ttimer\treceives=\d+\t/m);
    const replay = await cli(['dlq', '--queue', 'timers', 'replay', '--id', 'd-timer-1']);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('replayed 1 message(s)');
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: aws.timersQueueUrl, WaitTimeSeconds: 1, VisibilityTimeout: 30 }),
    );
    expect(Messages.map((m) => m.Body)).toEqual([timer]);
    expect(await count(aws.timersDlqUrl)).toBe(0);
  });

  it('says clearly when it finds no queue', async () => {
    const none = await cli(['dlq', 'list'], { HOOKGATE_HOME: join(home, 'nothing-running') });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no running hookgate dev for .*nothing-running .*; pass --queue-url URL, --stack NAME/);
    // The home named runs none, and the dev that does run is named, not used in its place.
    const hint = /\((?:one runs|these run) for ([^)]*): pass --home DIR\)/.exec(none.stderr);
    expect(hint?.[1]?.split(', ')).toContain(home);
    const timers = await cli(['dlq', '--queue', 'timers', 'list'], { HOOKGATE_HOME: join(home, 'nothing-running') });
    expect(timers.stderr).toContain('or set HOOKGATE_TIMERS_DLQ_URL');
    expect(none.stderr).not.toMatch(/\n\s+at /);
  });
});
