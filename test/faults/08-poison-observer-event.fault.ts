import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enable, plugin } from '../hooks/support/temp-home.ts';
import { faultLine, settle, size, until } from './support/fault-line.ts';
import { startFaultDev, type FaultDev } from './support/fault-dev.ts';

/**
 * Fault 8: poison observer events. A throwing observer hook is not one — hooks fail open
 * (architecture §6: caught, logged, the pipeline goes on) — so the poison here is what the
 * observer consumer itself cannot process: an offloaded envelope whose payload object is not
 * in the bucket (a producer that published before its upload landed; a bucket policy that
 * hides it). POISON such envelopes go on the real events topic among GOOD inline events
 * (`POST /v1/events`). The good ones run their observer once each; each poison one fails on
 * every receive and lands in the events DLQ after the queue's maxReceiveCount. Then the fix
 * (the payloads are uploaded) and the real `hookgate dlq replay` (a child process, finding
 * the dev server's emulators through the hooks home): each poison event runs once, the DLQ
 * is empty, and replaying or re-publishing them runs nothing again (idempotency by id).
 *
 * The dev server's events queue has a visibility timeout of 6 × 60 s (as deployed); the case
 * sets it to 1 s on the running queue so that 5 receives take seconds, not 30 minutes.
 */
const POISON = size(20, 4);
const GOOD = size(100, 10);
const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));
const run = promisify(execFile);
let fd: FaultDev;
let clients: { sqs: SQSClient; sns: SNSClient; s3: S3Client };
/** The observer consumer's failure lines (stderr, in this process): taken out of the test output and counted. */
const failures: { id: string; receive: number }[] = [];
const stderrWrite = process.stderr.write.bind(process.stderr);

beforeAll(async () => {
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    const failure = /observer event (poison-\S+) \(post_tool_call\) failed on receive (\d+)/.exec(text);
    if (!failure) return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    failures.push({ id: failure[1]!, receive: Number(failure[2]) });
    return true;
  }) as typeof process.stderr.write;
  fd = await startFaultDev({
    files: {
      'config.yaml': enable('counter'),
      // Appends the marker of each post_tool_call it observes: the side effect to count.
      ...plugin(
        'counter',
        `
      const { appendFileSync } = await import('node:fs');
      const { join, dirname } = await import('node:path');
      const { fileURLToPath } = await import('node:url');
      const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'processed.log');
      ctx.register_hook('post_tool_call', function counter(kwargs: any) { appendFileSync(file, String(kwargs.marker) + '\\n'); });`,
      ),
    },
  });
  const { aws } = fd.dev;
  const config = { region: aws.region, credentials: aws.credentials };
  clients = {
    sqs: new SQSClient({ ...config, endpoint: aws.sqsEndpoint }),
    sns: new SNSClient({ ...config, endpoint: aws.snsEndpoint }),
    s3: new S3Client({ ...config, endpoint: aws.s3Endpoint, forcePathStyle: true }),
  };
  await clients.sqs.send(new SetQueueAttributesCommand({ QueueUrl: aws.eventsQueueUrl, Attributes: { VisibilityTimeout: '1' } }));
}, 120_000);
afterAll(async () => {
  process.stderr.write = stderrWrite;
  for (const client of Object.values(clients ?? {})) client.destroy();
  await fd?.stop();
});

const processed = async (): Promise<string[]> =>
  (await readFile(join(fd.home.path, 'processed.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
const depth = async (queueUrl: string): Promise<number> => {
  const { Attributes } = await clients.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
};
const hookgate = (...args: string[]) =>
  run(process.execPath, [BIN, ...args, '--home', fd.home.path], {
    env: { ...process.env, HOOKGATE_HOME: fd.home.path },
    timeout: 120_000,
  });

describe('fault 8: poison observer event', () => {
  it('lands in the events DLQ after maxReceiveCount receives; after the fix, hookgate dlq replay runs it once', async (ctx) => {
    const { aws } = fd.dev;
    const runId = randomUUID().slice(0, 8);
    const { Attributes } = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: aws.eventsQueueUrl, AttributeNames: ['RedrivePolicy'] }),
    );
    const maxReceiveCount = (JSON.parse(Attributes!.RedrivePolicy!) as { maxReceiveCount: number }).maxReceiveCount;

    // Poison: offloaded envelopes whose payload object is not there yet.
    const poison = Array.from({ length: POISON }, (_, i) => {
      const id = `poison-${runId}-${i}`;
      const body = JSON.stringify({ tool_name: 'terminal', marker: id, telemetry_schema_version: 'hermes.observer.v1' });
      const key = `payloads/${new Date().toISOString().slice(0, 10)}/${id}.json`;
      const ref = {
        store: 's3',
        bucket: aws.payloadBucket,
        key,
        bytes: Buffer.byteLength(body),
        sha256: createHash('sha256').update(body).digest('hex'),
      };
      const envelope = {
        v: 1,
        id,
        type: 'post_tool_call',
        occurred_at: new Date().toISOString(),
        session_id: null,
        turn_id: null,
        payload: null,
        payload_ref: ref,
      };
      return { id, key, body, envelope: JSON.stringify(envelope) };
    });
    const good = Array.from({ length: GOOD }, (_, i) => `good-${runId}-${i}`);
    const publish = (message: string) => clients.sns.send(new PublishCommand({ TopicArn: aws.eventsTopicArn, Message: message }));
    const postGood = async (marker: string) => {
      const res = await fetch(`${fd.dev.url}/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${fd.dev.apiToken}` },
        body: JSON.stringify({ type: 'post_tool_call', id: marker, payload: { tool_name: 'terminal', marker } }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    // Interleaved: the poison must not hold up the good events around it.
    const statuses: number[] = [];
    for (let i = 0; i < Math.max(POISON, GOOD); i++) {
      if (i < POISON) await publish(poison[i]!.envelope);
      if (i < GOOD) statuses.push(await postGood(good[i]!));
    }

    await until(
      () => depth(aws.eventsDlqUrl),
      (n) => n >= POISON,
    );
    await until(processed, (lines) => good.every((m) => lines.includes(m)));
    const beforeFix = await processed();
    const listed = JSON.parse((await hookgate('dlq', 'list', '--json')).stdout) as { id?: string }[];
    const inDlq = listed.filter((l) => poison.some((p) => p.id === l.id));
    // The receives each poison event failed on, as the consumer logged them (`… failed on receive N`).
    const receives = [...new Set(poison.map((p) => failures.filter((f) => f.id === p.id).length))].sort();

    // The fix: the payloads land. Then the real CLI replays the DLQ into the events queue.
    for (const p of poison)
      await clients.s3.send(
        new PutObjectCommand({ Bucket: aws.payloadBucket, Key: p.key, Body: p.body, ContentType: 'application/json' }),
      );
    const replay = await hookgate('dlq', 'replay');
    const replayed = Number(/replayed (\d+) message/.exec(replay.stdout)?.[1] ?? -1);
    await until(processed, (lines) => poison.every((p) => lines.includes(p.id)));
    // Once more: a second replay finds nothing, and the same envelopes published again run nothing.
    const replayAgain = Number(/replayed (\d+) message/.exec((await hookgate('dlq', 'replay')).stdout)?.[1] ?? -1);
    const runsAfterReplay = (await processed()).length;
    for (const p of poison) await publish(p.envelope);
    await until(
      () => depth(aws.eventsQueueUrl),
      (n) => n === 0,
    );
    await settle(1_500);
    const lines = await processed();
    const count = (marker: string) => lines.filter((l) => l === marker).length;
    const dlqAfter = await depth(aws.eventsDlqUrl);
    const rerun = lines.length - runsAfterReplay;

    const poisonOnce = poison.filter((p) => count(p.id) === 1).length;
    const goodOnce = good.filter((m) => count(m) === 1).length;
    const twice = [...poison.map((p) => p.id), ...good].filter((m) => count(m) > 1).length;
    faultLine(
      ctx,
      `fault 8 poison-observer-event: ${POISON} poison events (offloaded payload missing) among ${GOOD} good ones; ${inDlq.length}/${POISON} in the events DLQ after ${receives.join('/')} failed receives each (maxReceiveCount ${maxReceiveCount}), ${beforeFix.filter((l) => l.startsWith('poison-')).length} ran before the fix, ${goodOnce}/${GOOD} good ran once; payloads uploaded, hookgate dlq replay: ${replayed} replayed, ${poisonOnce}/${POISON} ran once, ${twice} twice, DLQ ${dlqAfter} after; replay again: ${replayAgain}, re-published: ${rerun} new runs`,
    );
    expect(statuses.filter((s) => s !== 202)).toEqual([]);
    expect({
      inDlq: inDlq.length,
      receives,
      ranBeforeFix: beforeFix.filter((l) => l.startsWith('poison-')).length,
      replayed,
      poisonOnce,
      goodOnce,
      twice,
      dlqAfter,
      replayAgain,
      rerun,
    }).toEqual({
      inDlq: POISON,
      receives: [maxReceiveCount],
      ranBeforeFix: 0,
      replayed: POISON,
      poisonOnce: POISON,
      goodOnce: GOOD,
      twice: 0,
      dlqAfter: 0,
      replayAgain: 0,
      rerun: 0,
    });
  });
});
