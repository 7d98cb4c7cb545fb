import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as z from '../validation/zod.ts';
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
  pid: z.int().check(z.positive()),
  region: z.string().check(z.minLength(1)),
  credentials: z.object({ accessKeyId: z.string(), secretAccessKey: z.string() }),
  sqsEndpoint: z.url(),
  snsEndpoint: z.url(),
  s3Endpoint: z.url(),
  dynamodbEndpoint: z.url(),
  tableName: z.string().check(z.minLength(1)),
  turnsQueueUrl: z.url(),
  timersQueueUrl: z.url(),
  timersDlqUrl: z.url(),
  eventsTopicArn: z.string().check(z.minLength(1)),
  payloadBucket: z.string().check(z.minLength(1)),
  turnsDlqUrl: z.url(),
  eventsQueueUrl: z.url(),
  eventsDlqUrl: z.url(),
}) satisfies z.ZodMiniType<DevEndpoints>;

export const devEndpointsPath = (home: string): string => join(home, '.hookgate', 'dev-endpoints.json');

/**
 * Where every running `hookgate dev` of this user leaves a pointer to its hooks home
 * (`<tmpdir>/hookgate-dev-<uid>/<pid>.json`), so `hookgate trace`, `replay` and `dlq` find
 * the one dev that runs without `--home`.
 */
export const runningDevsDir = (): string => join(tmpdir(), `hookgate-dev-${userId()}`);

function userId(): string {
  try {
    return String(userInfo().uid);
  } catch {
    return 'user';
  }
}

const RUNNING_DEV = z.object({ home: z.string().check(z.minLength(1)), pid: z.int().check(z.positive()), gatewayUrl: z.url() });

export async function writeDevEndpoints(home: string, endpoints: DevEndpoints): Promise<void> {
  const path = devEndpointsPath(home);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(endpoints, null, 2), { mode: 0o600 });
  try {
    await mkdir(runningDevsDir(), { recursive: true, mode: 0o700 });
    const pointer = { home: resolve(home), pid: endpoints.pid, gatewayUrl: endpoints.gatewayUrl };
    await writeFile(join(runningDevsDir(), `${endpoints.pid}.json`), JSON.stringify(pointer), { mode: 0o600 });
  } catch {
    // Only a convenience (commands without --home); the endpoints file in the home is what counts.
  }
}

/** A `hookgate dev` that runs, as other commands find it. */
export interface RunningDev {
  home: string;
  endpoints: DevEndpoints;
}

/**
 * The running `hookgate dev` a command without a table or stack talks to: the one of
 * `home` when given (`--home`); else the one of the default hooks home (HOOKGATE_HOME,
 * HERMES_HOME, ~/.hermes) when it runs; else the only one this user runs. Undefined with
 * a reason when there is none, or several and no way to choose.
 *
 * @example
 * const found = await findRunningDev({ defaultHome: resolveHooksHome() });
 * if ('why' in found) throw new TraceTargetError(found.why); // as src/cli/trace-target.ts does
 */
export async function findRunningDev(options: { home?: string; defaultHome: string }): Promise<RunningDev | { why: string }> {
  if (options.home !== undefined) {
    const endpoints = await readDevEndpoints(options.home);
    if (endpoints) return { home: resolve(options.home), endpoints };
    // Not another dev in its place (the home named is the answer), but say where the others run.
    const others = (await runningDevs()).map((r) => r.home);
    const hint =
      others.length > 0 ? ` (${others.length === 1 ? 'one runs' : 'these run'} for ${others.join(', ')}: pass --home DIR)` : '';
    return { why: `no running hookgate dev for ${options.home}${hint}` };
  }
  const atDefault = await readDevEndpoints(options.defaultHome);
  if (atDefault) return { home: resolve(options.defaultHome), endpoints: atDefault };
  const running = await runningDevs();
  if (running.length === 1) return running[0]!;
  if (running.length === 0) return { why: `no running hookgate dev (none for ${options.defaultHome}, and no other found)` };
  return { why: `${running.length} hookgate dev servers run (${running.map((r) => r.home).join(', ')}); pass --home DIR` };
}

/** Every `hookgate dev` this user runs, from the pointers each leaves (a pointer whose dev is gone is skipped). */
async function runningDevs(): Promise<RunningDev[]> {
  const running: RunningDev[] = [];
  const names = await readdir(runningDevsDir()).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const pointer = RUNNING_DEV.safeParse(await readFile(join(runningDevsDir(), name), 'utf8').then(JSON.parse, () => undefined));
    if (!pointer.success) continue;
    const endpoints = await readDevEndpoints(pointer.data.home);
    if (endpoints && endpoints.pid === pointer.data.pid) running.push({ home: pointer.data.home, endpoints });
  }
  return running;
}

/**
 * The home a command named, as `findRunningDev`'s `home`: `--home`, else an explicitly set
 * HOOKGATE_HOME or HERMES_HOME — a named home that runs no dev is an answer, never a reason to
 * talk to some other dev. Empty when none was named (then the only running dev is found).
 *
 * @example
 * await findRunningDev({ ...explicitDevHome(options.home, process.env), defaultHome: resolveHooksHome() });
 */
export function explicitDevHome(home: string | undefined, env: NodeJS.ProcessEnv): { home?: string } {
  const named = home ?? (env.HOOKGATE_HOME || env.HERMES_HOME || undefined);
  return named === undefined ? {} : { home: named };
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
  await rm(join(runningDevsDir(), `${process.pid}.json`), { force: true });
}
