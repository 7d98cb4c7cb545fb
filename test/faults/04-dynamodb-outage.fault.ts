import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultLine, size, until } from './support/fault-line.ts';
import { startFaultDev, type FaultDev, type Platform } from './support/fault-dev.ts';
import { outageSummary, runOutageScenario } from './support/outage-scenario.ts';

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
 * The turns queue's visibility timeout is 135 s as deployed; the case sets it to 15 s on
 * the running queue, so that a turn that failed during the outage is retried within the run
 * (2 receives before the DLQ, TURN_MAX_RECEIVE_COUNT: the outage, OUTAGE_MS, and the emulator's
 * restart on a loaded machine must fit in one visibility, as a deployed outage must fit in 135 s).
 */
const PLATFORMS: Platform[] = ['telegram', 'slack', 'discord', 'whatsapp', 'teams'];
const PER_PHASE = size(60, 15);
const CHATS = 10;
/** At least this long down (the messages of the phase spread over it): shorter than one visibility (15 s here). */
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
  const child = spawn(
    process.execPath,
    [DYNALITE_CLI, '--host', '127.0.0.1', '--port', String(port), '--path', dataDir, '--createTableMs', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
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
  await sqs.send(new SetQueueAttributesCommand({ QueueUrl: aws.turnsQueueUrl, Attributes: { VisibilityTimeout: '15' } }));
  sqs.destroy();
}, 120_000);
afterAll(async () => {
  process.stderr.write = stderrWrite;
  await fd?.stop();
  await killDynalite();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('fault 4: DynamoDB emulator stopped mid-run', () => {
  it('answers 5xx during the outage, never a 2xx it cannot keep; after restart every acknowledged message is answered once', async (ctx) => {
    const f = await runOutageScenario(fd, {
      platforms: PLATFORMS,
      perPhase: PER_PHASE,
      chats: CHATS,
      tag: 'outage',
      firstNumber: 40_000,
      outageMs: OUTAGE_MS,
      takeDown: killDynalite,
      bringBack: startDynalite,
      watchMs: 2_000,
    });
    const { head, tail } = outageSummary(f);
    faultLine(
      ctx,
      `fault 4 dynamodb-outage: ${f.messages} messages on ${PLATFORMS.length} platforms (${PER_PHASE} before, ${PER_PHASE} during a ${f.outageSeconds.toFixed(1)} s outage of the DynamoDB emulator, ${PER_PHASE} after); ${head}; ${outageLog.turnFailures} turn runs failed on the table and were retried by the queue; ${outageLog.unrecorded} turns answered but not recorded as handled (logged); ${tail}`,
    );
    expect({ lost: f.lost, twice: f.twice, other: f.other, acknowledged: f.acknowledged }).toEqual({
      lost: 0,
      twice: 0,
      other: 0,
      acknowledged: f.messages,
    });
    expect(f.fivexx).toBeGreaterThan(0); // the outage was seen
  });
});
