import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devEndpointsPath, readDevEndpoints, writeDevEndpoints, type DevEndpoints } from '../../src/local/dev-endpoints.ts';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-endpoints-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const endpoints = (pid: number): DevEndpoints => ({
  gatewayUrl: 'http://127.0.0.1:8787',
  pid,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  sqsEndpoint: 'http://127.0.0.1:4566',
  snsEndpoint: 'http://127.0.0.1:4566',
  s3Endpoint: 'http://127.0.0.1:4566',
  dynamodbEndpoint: 'http://127.0.0.1:4567',
  tableName: 'hookgate',
  turnsQueueUrl: 'http://127.0.0.1:4566/000000000000/hookgate-turns.fifo',
  timersQueueUrl: 'http://127.0.0.1:4566/000000000000/hookgate-timers',
  timersDlqUrl: 'http://127.0.0.1:4566/000000000000/hookgate-timers-dlq',
  eventsTopicArn: 'arn:aws:sns:us-east-1:000000000000:hookgate-events',
  payloadBucket: 'hookgate-payloads',
  turnsDlqUrl: 'http://127.0.0.1:4566/000000000000/hookgate-turns-dlq.fifo',
  eventsQueueUrl: 'http://127.0.0.1:4566/000000000000/hookgate-events',
  eventsDlqUrl: 'http://127.0.0.1:4566/000000000000/hookgate-events-dlq',
});

describe('the dev endpoints file', () => {
  it('names a running dev: read back as written', async () => {
    await writeDevEndpoints(home, endpoints(process.pid));
    expect(await readDevEndpoints(home)).toEqual(endpoints(process.pid));
  });

  it('names nothing when its process is gone (a dev killed with -9)', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeDevEndpoints(home, endpoints(gone));
    expect(await readDevEndpoints(home)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{'],
    ['another shape', JSON.stringify({ gatewayUrl: 'http://127.0.0.1:1', pid: process.pid })],
    ['a pid that is not a number', JSON.stringify({ ...endpoints(process.pid), pid: '1' })],
  ])('names nothing when the file is %s', async (_, text) => {
    await writeDevEndpoints(home, endpoints(process.pid));
    await writeFile(devEndpointsPath(home), text);
    expect(await readDevEndpoints(home)).toBeUndefined();
  });
});
