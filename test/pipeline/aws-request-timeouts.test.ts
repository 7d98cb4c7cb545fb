import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import { AWS_REQUEST_TIMEOUTS, MAX_LONG_POLL_SECONDS } from '../../src/pipeline/aws-request-timeouts.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';
import { startOutageProxy, type OutageProxy } from '../support/outage-proxy.ts';
import { startUnansweredConnect } from '../support/unanswered-connect.ts';

// Short limits, so that a dead connection costs the test a third of a second, not five.
const TIMEOUTS = { connectMs: 1_000, idleMs: 300 };

describe('the data plane gives up a connection that went silent (src/pipeline/aws-request-timeouts.ts)', () => {
  let aws: RunningEmulators;
  let dynamodb: OutageProxy;
  let sqs: OutageProxy;
  let sns: OutageProxy;
  let plane: DataPlane;
  beforeAll(async () => {
    aws = await startTestAws();
    dynamodb = await startOutageProxy(aws.dynamodbEndpoint);
    sqs = await startOutageProxy(aws.sqsEndpoint);
    sns = await startOutageProxy(aws.snsEndpoint);
    const endpoints = { dynamodbEndpoint: dynamodb.url, sqsEndpoint: sqs.url, snsEndpoint: sns.url };
    plane = createDataPlane(dataPlaneFromLocalAws({ ...aws, ...endpoints }), { requestTimeouts: TIMEOUTS });
  });
  afterAll(async () => {
    plane?.destroy();
    await dynamodb?.close();
    await sqs?.close();
    await sns?.close();
    await aws?.stop();
  });

  it('a claim sent on a kept-alive connection that died is sent again on a new one, and is claimed once', async () => {
    expect(await plane.dedup.claim('telegram:before', 60)).toBe(true);
    expect(dynamodb.connections()).toBe(1);
    dynamodb.darken();
    // Without a limit the SDK waits 300 s on this socket: the test times out.
    expect(await plane.dedup.claim('telegram:after', 60)).toBe(true);
    expect(dynamodb.connections()).toBe(2);
    expect(await plane.dedup.claim('telegram:after', 60)).toBe(false);
  });

  it('an SQS send on a dead connection is sent again on a new one', async () => {
    const send = () =>
      plane.clients.sqs.send(new SendMessageCommand({ QueueUrl: aws.eventsQueueUrl, MessageBody: '{"kind":"probe"}' }));
    await send();
    const before = sqs.connections();
    expect(before).toBeGreaterThan(0); // the endpoint override is what the client uses, not the queue URL's host
    sqs.darken();
    expect((await send()).MessageId).toBeTruthy();
    expect(sqs.connections()).toBe(before + 1);
  });

  it('a peer that takes the request and never answers: tried again on a new connection', async () => {
    const silent = await startOutageProxy(aws.dynamodbEndpoint, { darkFromStart: 1 });
    const fresh = createDataPlane(dataPlaneFromLocalAws({ ...aws, dynamodbEndpoint: silent.url }), { requestTimeouts: TIMEOUTS });
    try {
      expect(await fresh.dedup.claim('telegram:first-connection-silent', 60)).toBe(true);
      expect(silent.connections()).toBe(2);
    } finally {
      fresh.destroy();
      await silent.close();
    }
  });

  it('an SNS publish (the observer sink) on a dead connection is sent again on a new one', async () => {
    expect(await plane.observerSink.publish([{ type: 'agent:step', payload: { n: 1 } }])).toHaveLength(1);
    const before = sns.connections();
    expect(before).toBeGreaterThan(0);
    sns.darken();
    expect(await plane.observerSink.publish([{ type: 'agent:step', payload: { n: 2 } }])).toHaveLength(1);
    expect(sns.connections()).toBe(before + 1);
  });

  it('a connection that never opens is given up at the connect limit, each attempt, and the request fails', async () => {
    const dead = await startUnansweredConnect();
    const unreachable = createDataPlane(dataPlaneFromLocalAws({ ...aws, dynamodbEndpoint: dead.url }), {
      requestTimeouts: TIMEOUTS,
    });
    try {
      // Without a connect limit the SDK waits for the kernel to give up the handshake (about two minutes).
      await expect(unreachable.dedup.claim('telegram:never-connects', 60)).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      unreachable.destroy();
      await dead.close();
    }
  }, 20_000);

  it('the local poller never long-polls longer than a client waits on a silent socket', () => {
    expect(MAX_LONG_POLL_SECONDS * 1000).toBeLessThan(AWS_REQUEST_TIMEOUTS.idleMs);
    expect(MAX_LONG_POLL_SECONDS).toBeGreaterThanOrEqual(1);
  });
});
