import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PublishCommand } from '@aws-sdk/client-sns';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { asFunction, refusedRequests } from '../support/function-identity.ts';
import { startTestAws } from '../support/local-aws.ts';
import { enforcePlaneResourceGrants } from '../support/resource-grants.ts';

describe('the resource grant check (what the tests hold each function to)', () => {
  let aws: RunningEmulators;
  let plane: DataPlane;

  beforeAll(async () => {
    aws = await startTestAws();
    plane = createDataPlane(dataPlaneFromLocalAws(aws));
    await enforcePlaneResourceGrants(plane.clients, aws);
  });
  afterAll(async () => {
    plane?.destroy();
    await aws?.stop();
  });

  const send = (queueUrl: string) =>
    plane.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: '{}',
        MessageGroupId: 'g',
        MessageDeduplicationId: crypto.randomUUID(),
      }),
    );

  it('lets a function do what infra/lib/resource-access.ts grants it, and refuses the rest as IAM would', async () => {
    await asFunction('gateway', () => send(aws.turnsQueueUrl));
    await asFunction('turn', () => send(aws.timersQueueUrl));
    await asFunction('gateway', async () =>
      (await plane.clients.s3()).send(new PutObjectCommand({ Bucket: aws.payloadBucket, Key: 'payloads/x.json', Body: '{}' })),
    );
    await asFunction('observer', async () =>
      (await plane.clients.sns()).send(new PublishCommand({ TopicArn: aws.eventsTopicArn, Message: '{}' })),
    );
    expect(refusedRequests).toEqual([]);

    const refused = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.name).toMatch(/^AccessDenied/);
      return refusedRequests.pop();
    };
    // The observer sends nothing; the gateway sends no timer (without the console); nobody sends to a DLQ.
    expect(await refused(() => asFunction('observer', () => send(aws.turnsQueueUrl)))).toContain('sqs:SendMessage on turns');
    expect(await refused(() => asFunction('gateway', () => send(aws.timersQueueUrl)))).toContain('sqs:SendMessage on timers');
    expect(await refused(() => asFunction('turn', () => send(aws.turnsDlqUrl)))).toContain('on turnsDlq');
    // Receiving is the event source mapping's, not the code's.
    expect(
      await refused(() =>
        asFunction('turn', () => plane.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.turnsQueueUrl }))),
      ),
    ).toContain('sqs:ReceiveMessage on turns');
    // A key outside the granted prefix; a bucket the stack does not have.
    const put = async (key: string) =>
      (await plane.clients.s3()).send(new PutObjectCommand({ Bucket: aws.payloadBucket, Key: key, Body: '{}' }));
    expect(await refused(() => asFunction('gateway', () => put('elsewhere/x.json')))).toContain(
      's3:PutObject on elsewhere/x.json in the payloads bucket',
    );
    expect(await refused(() => asFunction('observer', () => put('payloads/x.json')))).toContain('s3:PutObject');
    expect(refusedRequests).toEqual([]);
  });

  it('checks nothing outside asFunction: a test sets up and looks as itself', async () => {
    await send(aws.turnsDlqUrl);
    expect(refusedRequests).toEqual([]);
  });
});
