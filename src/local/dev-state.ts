import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isProcessAlive } from '../hooks/shell/spawn/is-process-alive.ts';
import { DevStartError } from './dev-start-error.ts';

/** Where `hookgate dev` keeps what must survive a restart. */
export interface DevStateOptions {
  /** The state folder (`--state`, default `.hookgate/state` in the hooks home). */
  dir: string;
  /** `--fresh`: empty it first. */
  fresh?: boolean;
}

export interface DevState {
  dir: string;
  /** dynalite's LevelDB folder: sessions, transcripts, reply history, dedup, traces, the turn journal. */
  dynamodbPath: string;
  /** Frees the folder for the next `hookgate dev`. */
  release(): Promise<void>;
}

/** The default state folder, inside the hooks home: two homes never share one session history. */
export const DEFAULT_STATE_DIR = '<home>/.hookgate/state';

/**
 * Where `hookgate dev` keeps its state: `--state DIR`, else `HOOKGATE_DEV_STATE`, else
 * `.hookgate/state` in the hooks home (a hidden folder, never watched, beside the running dev's
 * endpoints file), so each home has its own sessions and traces; `undefined` for
 * `HOOKGATE_DEV_STATE=memory` (nothing kept: test harnesses that start many devs at once). A
 * blank value counts as unset, never as the current directory.
 *
 * @example
 * devStateDir(undefined, { HOOKGATE_DEV_STATE: '' }, '/home/me/.hermes'); // '/home/me/.hermes/.hookgate/state'
 */
export function devStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, home = '.'): string | undefined {
  const fromFlag = flag?.trim();
  if (fromFlag) return fromFlag;
  const fromEnv = env.HOOKGATE_DEV_STATE?.trim();
  if (fromEnv === 'memory') return undefined;
  return fromEnv || join(home, '.hookgate', 'state');
}

/**
 * Creates (or, with `fresh`, empties) the state folder and names its parts.
 *
 * @example
 * const state = await prepareDevState({ dir: '.hookgate' });
 * startEmulators({ dynamodbPath: state.dynamodbPath });
 */
export async function prepareDevState(options: DevStateOptions): Promise<DevState> {
  const dir = resolve(options.dir);
  const dynamodbPath = join(dir, 'dynamodb');
  const pidFile = join(dir, 'dev.pid');
  // The operator's alone: the table holds every chat's transcripts, approvals and grants, and
  // LevelDB creates its files world-readable (a sandboxed command runs as another user).
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  // LevelDB allows one process per folder, and dynalite would crash on the second one
  // asynchronously; a pid file turns that into a clear error first. A pid file left by a
  // killed dev (kill -9) names a dead process and is taken over.
  const holder = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  if (holder !== process.pid && isProcessAlive(holder)) {
    throw new DevStartError(
      `the state folder ${dir} is in use by another hookgate dev (pid ${holder}); stop it, or pass --state <another dir>`,
    );
  }
  await writeFile(pidFile, `${process.pid}\n`);
  if (options.fresh) await rm(dynamodbPath, { recursive: true, force: true });
  return { dir, dynamodbPath, release: () => rm(pidFile, { force: true }) };
}
