import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { SandboxError } from './tool-sandbox.ts';
import {
  DEFAULT_WORKSPACE_LIMITS,
  emptyWorkspace,
  fingerprintWorkspace,
  packWorkspace,
  unpackWorkspace,
  type WorkspaceLimits,
} from './workspace-archive.ts';

/** What this execution environment's copy of a workspace is: whose, which saved version, and what it held then. */
export interface LocalWorkspaceCopy {
  tenant: string;
  /** The ETag of the archive it was restored from or last saved as; none = restore in full next time. */
  etag?: string;
  /** `fingerprintWorkspace` at that moment: a different one means changed since. */
  fingerprint: string;
}

/**
 * One session's workspace in a directory that outlives a call (the tools function's /tmp),
 * kept in step with its archive in S3 through a presigned GET/PUT pair (no S3 permission here).
 *
 * @example
 * const sync = new PresignedWorkspace('/tmp/hookgate-workspace');
 * await sync.restore(sessionId, getUrl); // … run the request …
 * await sync.save(putUrl);
 */
export class PresignedWorkspace {
  private copy: LocalWorkspaceCopy | undefined;

  constructor(
    readonly dir: string,
    private readonly limits: WorkspaceLimits = DEFAULT_WORKSPACE_LIMITS,
    /** How long one try waits for S3's answer (its status and headers) before it is given up. */
    private readonly answerWithinMs: number = TRANSFER_ANSWER_WITHIN_MS,
  ) {}

  /**
   * Makes `dir` the tenant's saved workspace: a conditional GET (`If-None-Match` the version held
   * here) keeps the local copy when S3 answers 304; 404 is a new, empty workspace; 200 replaces the
   * directory with the archive. A copy of another tenant is never kept.
   */
  async restore(tenant: string, getUrl: string, signal?: AbortSignal): Promise<void> {
    const held = this.copy?.tenant === tenant ? this.copy : undefined;
    const init: RequestInit = { headers: held?.etag ? { 'if-none-match': held.etag } : {} };
    const response = await transfer(getUrl, init, this.answerWithinMs, signal).catch((error: Error) => {
      throw new SandboxError(`the session workspace could not be fetched (${error.message})`);
    });
    if (response.status === 304 && held) return;
    if (response.status === 404) {
      await response.body?.cancel();
      await emptyWorkspace(this.dir);
      this.copy = { tenant, fingerprint: (await fingerprintWorkspace(this.dir)).hash };
      return;
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      throw new SandboxError(`the session workspace could not be fetched (HTTP ${response.status}); nothing was run`);
    }
    this.copy = undefined;
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > this.limits.archiveBytes) {
      await response.body.cancel();
      throw new SandboxError(
        `the saved session workspace is ${length} bytes, over the ${this.limits.archiveBytes}-byte cap; nothing was run`,
      );
    }
    await unpackWorkspace(this.dir, Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), this.limits);
    this.copy = { tenant, ...etagOf(response), fingerprint: (await fingerprintWorkspace(this.dir)).hash };
  }

  /**
   * Uploads the workspace when it changed since it was restored or saved. Over a cap, nothing is
   * uploaded, the local copy is marked for a full restore (the changes are dropped at the next
   * call) and a `SandboxError` says so. Answers whether it uploaded.
   */
  async save(putUrl: string, signal?: AbortSignal): Promise<boolean> {
    const copy = this.copy;
    if (!copy) throw new SandboxError('the session workspace was not restored before saving');
    const print = await fingerprintWorkspace(this.dir);
    if (print.hash === copy.fingerprint) return false;
    let archive: Buffer;
    try {
      archive = await packWorkspace(this.dir, this.limits, print);
    } catch (error) {
      delete copy.etag;
      throw error;
    }
    const response = await transfer(putUrl, { method: 'PUT', body: archive }, this.answerWithinMs, signal).catch(
      (error: Error) => {
        delete copy.etag;
        throw new SandboxError(`the session workspace could not be saved (${error.message}); this call's changes may be lost`);
      },
    );
    await response.body?.cancel();
    if (!response.ok) {
      delete copy.etag;
      throw new SandboxError(
        `the session workspace could not be saved (HTTP ${response.status}); this call's changes may be lost`,
      );
    }
    this.copy = { tenant: copy.tenant, ...etagOf(response), fingerprint: print.hash };
    return true;
  }
}

/** Tries per transfer of an archive, the first included. */
const TRANSFER_ATTEMPTS = 3;
/**
 * How long one try waits for S3's answer. S3 answers in tens of milliseconds once it has the
 * request, and a 64 MiB upload takes about a second at Lambda's bandwidth; a connection that
 * died silently (frozen, its NAT mapping forgotten) would otherwise hold the call until undici's
 * 300 s, past the function's own timeout.
 */
const TRANSFER_ANSWER_WITHIN_MS = 15_000;
/** What S3 answers for a failure that may pass (InternalError, SlowDown, …): tried again. */
const PASSING_STATUS = new Set([500, 502, 503, 504]);

/**
 * One GET or PUT of the archive, tried again (after 50, then 100 ms) when it fails in a way that may
 * pass: S3's 5xx, or no answer at all (a dropped connection, or none within `answerWithinMs`). A kept-alive connection of a frozen execution environment may
 * be gone when it thaws, and the first request on it fails with no answer; both requests are safe to
 * send again (the same archive, or a read). The last failure is returned (a response) or thrown.
 */
async function transfer(url: string, init: RequestInit, answerWithinMs: number, signal?: AbortSignal): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    // Bounds the wait for the answer only: once it has come, the body streams under the caller's signal alone.
    const unanswered = new AbortController();
    const timer = setTimeout(() => unanswered.abort(new SandboxError(`no answer within ${answerWithinMs} ms`)), answerWithinMs);
    try {
      const response = await fetch(url, {
        ...init,
        signal: signal ? AbortSignal.any([signal, unanswered.signal]) : unanswered.signal,
      });
      if (attempt === TRANSFER_ATTEMPTS || !PASSING_STATUS.has(response.status)) return response;
      await response.body?.cancel();
    } catch (error) {
      if (attempt === TRANSFER_ATTEMPTS || signal?.aborted) throw error;
    } finally {
      clearTimeout(timer);
    }
    await sleep(50 * 2 ** (attempt - 1), undefined, signal ? { signal } : {});
  }
}

function etagOf(response: Response): { etag?: string } {
  const etag = response.headers.get('etag');
  return etag ? { etag } : {};
}
