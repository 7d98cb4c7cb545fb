import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { isProcessAlive } from '../hooks/shell/spawn/is-process-alive.ts';
import type { LocalAws } from './emulators.ts';

/**
 * A running `hookgate dev` keeps its emulators in-process; other commands (`hookgate trace`,
 * `hookgate dlq`) find them through this file in the hooks home.
 */
export interface DevEndpoints extends LocalAws {
  /** The dev server's base URL, e.g. `http://127.0.0.1:8787`. */
  gatewayUrl: string;
  pid: number;
}

const DEV_ENDPOINTS = z.object({
  gatewayUrl: z.url(),
  pid: z.number().int().positive(),
  region: z.string().min(1),
  credentials: z.object({ accessKeyId: z.string(), secretAccessKey: z.string() }),
  sqsEndpoint: z.url(),
  snsEndpoint: z.url(),
  s3Endpoint: z.url(),
  dynamodbEndpoint: z.url(),
  tableName: z.string().min(1),
  turnsQueueUrl: z.url(),
  timersQueueUrl: z.url(),
  eventsTopicArn: z.string().min(1),
  payloadBucket: z.string().min(1),
  turnsDlqUrl: z.url(),
  eventsQueueUrl: z.url(),
  eventsDlqUrl: z.url(),
}) satisfies z.ZodType<DevEndpoints>;

export const devEndpointsPath = (home: string): string => join(home, '.hookgate', 'dev-endpoints.json');

export async function writeDevEndpoints(home: string, endpoints: DevEndpoints): Promise<void> {
  const path = devEndpointsPath(home);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(endpoints, null, 2), { mode: 0o600 });
}

/** The endpoints of a `hookgate dev` that is still running for this home, if any. */
export async function readDevEndpoints(home: string): Promise<DevEndpoints | undefined> {
  try {
    const parsed = DEV_ENDPOINTS.safeParse(JSON.parse(await readFile(devEndpointsPath(home), 'utf8')));
    // A file from another version, or left by a dev that was killed, names nothing to use.
    return parsed.success && isProcessAlive(parsed.data.pid) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function removeDevEndpoints(home: string): Promise<void> {
  await rm(devEndpointsPath(home), { force: true });
}
