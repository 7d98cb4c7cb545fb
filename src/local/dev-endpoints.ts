import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

export const devEndpointsPath = (home: string): string => join(home, '.hookgate', 'dev-endpoints.json');

export async function writeDevEndpoints(home: string, endpoints: DevEndpoints): Promise<void> {
  const path = devEndpointsPath(home);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(endpoints, null, 2), { mode: 0o600 });
}

/** The endpoints of a `hookgate dev` that is still running for this home, if any. */
export async function readDevEndpoints(home: string): Promise<DevEndpoints | undefined> {
  try {
    const endpoints = JSON.parse(await readFile(devEndpointsPath(home), 'utf8')) as DevEndpoints;
    process.kill(endpoints.pid, 0); // throws when that process is gone
    return endpoints;
  } catch {
    return undefined;
  }
}

export async function removeDevEndpoints(home: string): Promise<void> {
  await rm(devEndpointsPath(home), { force: true });
}
