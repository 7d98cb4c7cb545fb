import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSRecord } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import type { RunningEmulators } from '../src/local/emulators.ts';
import { startEmulatorsProcess } from '../src/local/emulators-process.ts';
import { parseEnvelope } from '../src/pipeline/envelope.ts';
import { startSqsPoller } from '../src/local/sqs-poller.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import { createObserverConsumer } from '../src/pipeline/observer-consumer.ts';
import type { Bench } from './harness.ts';

/**
 * Observer events per second end to end through the local emulators: publish (SnsObserverSink,
 * PublishBatch) → SNS → SQS events queue → local poller → Powertools BatchProcessor +
 * idempotency (DynamoDB) → engine.runObservers ran. Baseline in the same run: raw SQS
 * SendMessageBatch + ReceiveMessage + DeleteMessageBatch of the same number of same-size
 * messages, with the same concurrency — the ceiling the emulator itself sets. A second
 * figure leaves idempotency out (same path otherwise) to show what the per-event DynamoDB
 * writes cost. The emulators run in a child process so they get the second core.
 */
const EVENTS = Number(process.env.HOOKGATE_BENCH_EVENTS ?? 4000);
const PUBLISHERS = 8;
const POLLERS = 4;

/** CPU time (user + system, ms) a process has used so far; NaN where /proc is missing. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks, 100 per second
  } catch {
    return NaN;
  }
}

/** What one end-to-end run cost: events/s and CPU µs per event in this process and in the emulators' process. */
interface RunCost {
  rate: number;
  consumerUs: number;
  emulatorUs: number;
}

const payload = (i: number) => ({
  tool_name: 'terminal',
  args: { command: `echo ${i}` },
  result: '{"output": "ok", "exit_code": 0, "error": null}',
  task_id: 't',
  session_id: 's',
  telemetry: { schema: 'hermes.observer.v1' },
});

async function rawSqs(sqs: SQSClient, queueUrl: string, body: string): Promise<number> {
  const t0 = performance.now();
  let sent = 0;
  const send = async () => {
    while (sent < EVENTS) {
      const n = Math.min(10, EVENTS - sent);
      sent += n;
      await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: Array.from({ length: n }, (_, i) => ({ Id: String(i), MessageBody: body })) }));
    }
  };
  let received = 0;
  const receive = async () => {
    while (received < EVENTS) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      if (Messages.length === 0) continue;
      received += Messages.length;
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
    }
  };
  await Promise.all([...Array.from({ length: PUBLISHERS }, send), ...Array.from({ length: POLLERS }, receive)]);
  return EVENTS / ((performance.now() - t0) / 1000);
}

async function endToEnd(
  plane: ReturnType<typeof createDataPlane>,
  aws: RunningEmulators & { pid: number },
  runTag: string,
  idempotent: boolean,
): Promise<RunCost> {
  let ran = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const engine = {
    async runObservers() {
      if (++ran === EVENTS) done();
    },
  };
  const consumer = idempotent
    ? createObserverConsumer({ engine, table: { tableName: aws.tableName, client: plane.clients.dynamodb }, payloads: plane.payloads })
    : (event: Parameters<ReturnType<typeof createObserverConsumer>>[0]) =>
        processPartialResponse(
          event,
          async (record: SQSRecord) => {
            const envelope = parseEnvelope(record.body);
            await engine.runObservers();
            return envelope.id;
          },
          new BatchProcessor(EventType.SQS),
          { throwOnFullBatchFailure: false },
        );
  const poller = await startSqsPoller({ sqs: plane.clients.sqs, queueUrl: aws.eventsQueueUrl, handler: consumer, batchSize: 10, concurrency: POLLERS });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const emulatorCpu0 = cpuMsOf(aws.pid);
  let next = 0;
  const publish = async () => {
    while (next < EVENTS) {
      const from = next;
      next += 10;
      const events = Array.from({ length: Math.min(10, EVENTS - from) }, (_, i) => ({ id: `${runTag}-${from + i}`, type: 'post_tool_call', payload: payload(from + i) }));
      await plane.observerSink.publish(events);
    }
  };
  await Promise.all(Array.from({ length: PUBLISHERS }, publish));
  await finished;
  const rate = EVENTS / ((performance.now() - t0) / 1000);
  const cpu = process.cpuUsage(cpu0);
  const emulatorUs = ((cpuMsOf(aws.pid) - emulatorCpu0) * 1000) / EVENTS;
  await poller.stop();
  return { rate, consumerUs: (cpu.user + cpu.system) / EVENTS, emulatorUs };
}

const bench: Bench = async () => {
  const aws = await startEmulatorsProcess();
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  try {
    const body = JSON.stringify({ v: 1, id: 'x', type: 'post_tool_call', occurred_at: new Date().toISOString(), session_id: null, turn_id: null, payload: payload(0) });
    const baselines: number[] = [];
    const candidates: RunCost[] = [];
    const transport: RunCost[] = [];
    for (let round = 0; round < 2; round++) {
      baselines.push(await rawSqs(plane.clients.sqs, aws.eventsQueueUrl, body));
      candidates.push(await endToEnd(plane, aws, `r${round}`, true));
      transport.push(await endToEnd(plane, aws, `t${round}`, false));
    }
    const best = (xs: number[]) => Math.max(...xs);
    const fastest = (runs: RunCost[]) => runs.reduce((a, b) => (b.rate > a.rate ? b : a));
    const cost = (r: RunCost) => `CPU per event: this process ${r.consumerUs.toFixed(0)} µs, emulators ${r.emulatorUs.toFixed(0)} µs`;
    return [
      {
        name: `pipeline: observer events end to end without idempotency (same path, no DynamoDB)`,
        baseline: 'raw SQS send+receive+delete',
        unit: 'events/s',
        value: fastest(transport).rate,
        baselineValue: best(baselines),
        better: 'higher',
        notes: `rounds: ${transport.map((x) => x.rate.toFixed(0)).join(', ')}; ${cost(fastest(transport))}`,
      },
      {
        name: `pipeline: observer events end to end (${EVENTS} events; sink → SNS → SQS → poller → BatchProcessor + idempotency → observer)`,
        baseline: 'raw SQS send+receive+delete',
        unit: 'events/s',
        value: fastest(candidates).rate,
        baselineValue: best(baselines),
        better: 'higher',
        notes: `rounds: candidate ${candidates.map((x) => x.rate.toFixed(0)).join(', ')}; ${cost(fastest(candidates))}; baseline ${baselines.map((x) => x.toFixed(0)).join(', ')}; ${PUBLISHERS} publishers, ${POLLERS} pollers, batch 10`,
      },
    ];
  } finally {
    plane.destroy();
    await aws.stop();
  }
};
export default bench;
