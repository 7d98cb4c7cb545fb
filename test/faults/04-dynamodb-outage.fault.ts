import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultLine, settle, size, until } from './support/fault-line.ts';
import { ACK, chatMessage, post, startFaultDev, type ChatMessage, type FaultDev, type Platform } from './support/fault-dev.ts';

/**
 * Fault 4: the DynamoDB emulator stopped mid-run. `hookgate dev` runs against a dynalite of
 * the case's own (a child process on a fixed port, its data in LevelDB, through the
 * `dynamodbEndpoint` option): the same SDK clients, gateway, turn consumer and table as
 * always, only the server is elsewhere. Messages go to the five platforms that deliver with
 * an id (the local chat keeps its replies in the table, so it cannot be read during the
 * outage) before, during and after the outage: the emulator is killed (SIGKILL) and started
 * again on the same port and data. Every response status is recorded; a delivery answered
 * 5xx is delivered again after recovery, as the platform would. Every acknowledged (2xx)
 * message gets exactly one reply.
 *
 * The turns queue's visibility timeout is 6 × 120 s as deployed; the case sets it to 5 s on
 * the running queue, so that a turn that failed during the outage is retried within the run
 * (5 receives before the DLQ: the outage, OUTAGE_MS, lasts about as long as one).
 */
const PLATFORMS: Platform[] = ['telegram', 'slack', 'discord', 'whatsapp', 'teams'];
const PER_PHASE = size(60, 15);
const CHATS = 10;
/** At least this long down (the messages of the phase spread over it): shorter than 5 receives at 5 s. */
const OUTAGE_MS = 4_000;
const DYNALITE_CLI = createRequire(import.meta.url).resolve('dynalite/cli.js');

let fd: FaultDev;
let dataDir: string;
let port: number;
let dynalite: ChildProcess | undefined;
/** The dev server's error lines (JSON on stderr, in this process) about the outage: counted, kept out of the test output. */
const outageLog = { refused: 0, turnFailures: 0, unrecorded: 0 };
const stderrWrite = process.stderr.write.bind(process.stdout);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** dynalite on `port` with its LevelDB in `dataDir`; resolves once it listens. */
async function startDynalite(): Promise<void> {
  const child = spawn(process.execPath, [DYNALITE_CLI, '--host', '127.0.0.1', '--port', String(port), '--path', dataDir, '--createTableMs', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  dynalite = child;
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`dynalite exited with ${child.exitCode}: ${out}`);
      return out;
    },
    (text) => text.includes('listening'),
  );
}

function killDynalite(): Promise<void> {
  const child = dynalite;
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

beforeAll(async () => {
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.includes('"level":"ERROR"') && text.includes('ECONNREFUSED')) {
      if (text.includes('answering 503')) outageLog.refused += 1;
      else if (text.includes('turn queue: message')) outageLog.turnFailures += 1;
      else if (text.includes('as handled')) outageLog.unrecorded += 1;
      else return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
      return true;
    }
    return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  dataDir = await mkdtemp(join(tmpdir(), 'hookgate-fault4-'));
  port = await freePort();
  await startDynalite();
  fd = await startFaultDev({ files: {}, dynamodbEndpoint: `http://127.0.0.1:${port}` });
  const { aws } = fd.dev;
  const sqs = new SQSClient({ region: aws.region, credentials: aws.credentials, endpoint: aws.sqsEndpoint });
  await sqs.send(new SetQueueAttributesCommand({ QueueUrl: aws.turnsQueueUrl, Attributes: { VisibilityTimeout: '5' } }));
  sqs.destroy();
}, 120_000);
afterAll(async () => {
  process.stderr.write = stderrWrite;
  await fd?.stop();
  await killDynalite();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Sent {
  message: ChatMessage;
  phase: 'before' | 'during' | 'after';
  statuses: (number | 'dropped')[];
}

describe('fault 4: DynamoDB emulator stopped mid-run', () => {
  it('answers 5xx during the outage, never a 2xx it cannot keep; after restart every acknowledged message is answered once', async (ctx) => {
    const sent: Sent[] = [];
    let n = 40_000;
    let up: number | undefined;
    let firstAckAfterRestart: number | undefined;
    const deliver = async (item: Sent) => {
      const status = await post(fd, item.message).catch(() => 'dropped' as const);
      item.statuses.push(status);
      if (up !== undefined && firstAckAfterRestart === undefined && status === ACK[item.message.platform]) firstAckAfterRestart = Date.now();
    };
    /** PER_PHASE new messages, four at a time, across the platforms and CHATS chats on each; spread over `spreadMs`. */
    const phase = async (name: Sent['phase'], spreadMs = 0) => {
      const items = Array.from({ length: PER_PHASE }, () => {
        n += 1;
        const platform = PLATFORMS[n % PLATFORMS.length]!;
        const item: Sent = { message: chatMessage(fd, platform, `o${n % CHATS}`, n, `outage ${name} ${n}`), phase: name, statuses: [] };
        sent.push(item);
        return item;
      });
      for (let i = 0; i < items.length; i += 4) {
        await Promise.all(items.slice(i, i + 4).map(deliver));
        if (spreadMs) await settle(spreadMs / Math.ceil(items.length / 4));
      }
    };

    await phase('before');
    await killDynalite();
    const down = Date.now();
    await phase('during', OUTAGE_MS);
    await startDynalite();
    up = Date.now();
    await phase('after');
    // The platforms deliver again what was not acknowledged.
    const refused = sent.filter((s) => !s.statuses.some((st) => st === ACK[s.message.platform]));
    for (const item of refused) await deliver(item);

    const acknowledged = sent.filter((s) => s.statuses.some((st) => st === ACK[s.message.platform]));
    const answeredOf = async (items: Sent[]) => (await Promise.all(items.map(async (s) => (await s.message.replies()).filter((t) => t.includes(s.message.body.match(/outage \w+ \d+/)![0])).length))) as number[];
    await until(() => answeredOf(acknowledged), (counts) => counts.every((c) => c >= 1));
    const allAnswered = Date.now();
    await settle(2_000);
    const counts = await answeredOf(sent);
    const ackedCounts = sent.map((s, i) => ({ s, c: counts[i]! })).filter(({ s }) => acknowledged.includes(s));

    const first = sent.map((s) => s.statuses[0]!);
    const tally = new Map<string, number>();
    for (const status of first) tally.set(String(status), (tally.get(String(status)) ?? 0) + 1);
    const statusTally = [...tally].map(([s, c]) => `${s}x${c}`).join(' ');
    const during = sent.filter((s) => s.phase === 'during');
    const twoxxDuring = during.filter((s) => typeof s.statuses[0] === 'number' && (s.statuses[0] as number) < 300).length;
    const fivexx = first.filter((s) => typeof s === 'number' && s >= 500).length;
    const other = first.filter((s) => s === 'dropped' || (typeof s === 'number' && s >= 300 && s < 500)).length;
    const lost = ackedCounts.filter(({ c }) => c === 0).length;
    const twice = ackedCounts.filter(({ c }) => c > 1).length;
    faultLine(
      ctx,
      `fault 4 dynamodb-outage: ${sent.length} messages on ${PLATFORMS.length} platforms (${PER_PHASE} before, ${PER_PHASE} during a ${((up - down) / 1000).toFixed(1)} s outage of the DynamoDB emulator, ${PER_PHASE} after); first tries ${statusTally}; during: ${twoxxDuring} x 2xx, ${during.length - twoxxDuring} x 5xx; ${outageLog.turnFailures} turn runs failed on the table and were retried by the queue; ${outageLog.unrecorded} turns answered but not recorded as handled (logged); ${refused.length} not acknowledged delivered again after recovery; ${acknowledged.length} acknowledged, ${ackedCounts.length - lost} answered, ${lost} lost, ${twice} twice; first 2xx ${firstAckAfterRestart === undefined ? 'never' : `${((firstAckAfterRestart - up) / 1000).toFixed(1)} s`} after restart, all answered ${((allAnswered - up) / 1000).toFixed(1)} s after`,
    );
    expect({ lost, twice, other, acknowledged: acknowledged.length }).toEqual({ lost: 0, twice: 0, other: 0, acknowledged: sent.length });
    expect(fivexx).toBeGreaterThan(0); // the outage was seen
  });
});
