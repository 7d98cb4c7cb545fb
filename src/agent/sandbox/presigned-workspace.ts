import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
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
  ) {}

  /**
   * Makes `dir` the tenant's saved workspace: a conditional GET (`If-None-Match` the version held
   * here) keeps the local copy when S3 answers 304; 404 is a new, empty workspace; 200 replaces the
   * directory with the archive. A copy of another tenant is never kept.
   */
  async restore(tenant: string, getUrl: string, signal?: AbortSignal): Promise<void> {
    const held = this.copy?.tenant === tenant ? this.copy : undefined;
    const response = await fetch(getUrl, {
      headers: held?.etag ? { 'if-none-match': held.etag } : {},
      ...(signal ? { signal } : {}),
    }).catch((error: Error) => {
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
    const response = await fetch(putUrl, { method: 'PUT', body: archive, ...(signal ? { signal } : {}) }).catch(
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

function etagOf(response: Response): { etag?: string } {
  const etag = response.headers.get('etag');
  return etag ? { etag } : {};
}
