import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack, aws_lambda as lambda, aws_lambda_nodejs as nodejs } from 'aws-cdk-lib';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Header } from 'tar';
import { functionBundling } from '../../infra/lib/function-bundling.ts';
import { createLambdaSandbox, workspaceKey } from '../../src/agent/sandbox/lambda-sandbox.ts';
import { SandboxError, type ToolSandbox } from '../../src/agent/sandbox/tool-sandbox.ts';
import { tenantIdOf } from '../../src/agent/sandbox/tools-function-protocol.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

type Handler = (event: unknown, context?: { tenantId?: string }) => Promise<unknown>;

/** What a Lambda environment has that a command must never see: its role's key, anything else of the function's. */
const PLANTED = { AWS_SECRET_ACCESS_KEY: 'planted-aws-secret-key', HOOKGATE_PLANTED: 'planted-hookgate-value' };

/** Imports the built asset as Lambda does, as a fresh execution environment: its own module instance and /tmp. */
async function importEnvironment(asset: string, tmp: string, instance: string): Promise<Handler> {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    const module = (await import(`${pathToFileURL(join(asset, 'index.mjs')).href}?environment=${instance}`)) as {
      handler: Handler;
    };
    return module.handler;
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/**
 * Lambda's Invoke API on 127.0.0.1, as the SDK speaks it: `POST /2015-03-31/functions/<name>/invocations`,
 * the tenant in `X-Amz-Tenant-Id`, the payload as the body; a handler's throw is a 200 with
 * `X-Amz-Function-Error: Unhandled`. `tools-timeout` answers what Lambda answers for a timed-out call.
 */
function startFakeLambda(route: () => Handler): Promise<{ server: Server; url: string; tenants: string[]; events: unknown[] }> {
  const tenants: string[] = [];
  const events: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const name = decodeURIComponent(/^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(request.url ?? '')?.[1] ?? '');
      const tenant = request.headers['x-amz-tenant-id'];
      if (typeof tenant === 'string') tenants.push(tenant);
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      const answer = (status: number, body: unknown, error?: string) => {
        response.writeHead(status, { 'content-type': 'application/json', ...(error ? { 'x-amz-function-error': error } : {}) });
        response.end(JSON.stringify(body));
      };
      if (name === 'tools-timeout')
        return answer(200, { errorMessage: '2026-12-03T22:00:00.000Z abc Task timed out after 120.00 seconds' }, 'Unhandled');
      if (typeof tenant !== 'string') return answer(400, { Type: 'User', message: 'Tenant ID configuration not specified' });
      try {
        answer(200, await route()(JSON.parse(Buffer.concat(chunks).toString('utf8')), { tenantId: tenant }));
      } catch (error) {
        answer(200, { errorType: (error as Error).name, errorMessage: (error as Error).message }, 'Unhandled');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tenants, events }),
    ),
  );
}

/** One raw tar entry: a header block and the body padded to 512 (node-tar's Header, so any path or type can be written). */
function tarEntry(
  fields: { path: string; type: 'File' | 'SymbolicLink' | 'Link' | 'FIFO' | 'Directory'; linkpath?: string },
  body = Buffer.alloc(0),
): Buffer {
  const block = Buffer.alloc(512);
  new Header({
    ...fields,
    size: body.length,
    mode: fields.type === 'Directory' ? 0o755 : 0o644,
    mtime: new Date(),
    uid: 0,
    gid: 0,
  }).encode(block, 0);
  return Buffer.concat([block, body, Buffer.alloc((512 - (body.length % 512)) % 512)]);
}

describe('the tools function asset, run as Lambda runs it, with workspaces in S3 (fauxqs)', () => {
  let buildDir: string;
  let asset: string;
  let aws: RunningEmulators;
  let lambdaApi: Awaited<ReturnType<typeof startFakeLambda>>;
  let environment: Handler;
  let firstTmp: string;
  let s3: S3Client;
  let sandbox: ToolSandbox;
  const timings: Record<string, number> = {};

  const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      timings[label] = Math.round(performance.now() - started);
    }
  };

  const saved = Object.fromEntries(Object.keys(PLANTED).map((name) => [name, process.env[name]]));
  beforeAll(async () => {
    // In the process for every call, as in a Lambda environment (the test's own clients get explicit credentials).
    Object.assign(process.env, PLANTED);
    await mkdir(join(REPO, '.hookgate-build'), { recursive: true });
    buildDir = await mkdtemp(join(REPO, '.hookgate-build', 'tools-'));
    // The stack's own bundling props for the tools function, through NodejsFunction's local esbuild.
    const app = new App({ outdir: join(buildDir, 'cdk.out') });
    const stack = new Stack(app, 'tools-asset');
    const { environment: _none, ...bundling } = functionBundling({ repoRoot: REPO, functionName: 'tools' });
    new nodejs.NodejsFunction(stack, 'tools', { ...bundling, runtime: lambda.Runtime.NODEJS_22_X });
    const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, any> };
    const fn = Object.values(template.Resources).find((r) => r.Type === 'AWS::Lambda::Function');
    asset = join(buildDir, 'cdk.out', `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`);

    aws = await startTestAws();
    firstTmp = await mkdtemp(join(buildDir, 'env-a-'));
    environment = await timed('import of the asset (cold start, module only)', () => importEnvironment(asset, firstTmp, 'a'));
    lambdaApi = await startFakeLambda(() => environment);
    const client = { region: aws.region, credentials: aws.credentials };
    s3 = new S3Client({ ...client, endpoint: aws.s3Endpoint, forcePathStyle: true });
    sandbox = createLambdaSandbox({
      functionName: 'tools',
      bucket: aws.payloadBucket,
      lambda: new LambdaClient({ ...client, endpoint: lambdaApi.url }),
      s3,
    });
  }, 180_000);

  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    console.log('tools function, one invocation locally (ms):', timings);
    await new Promise((resolve) => lambdaApi?.server.close(resolve));
    s3?.destroy();
    await aws?.stop();
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  it('is a small asset with the tools code alone: no hooks home, no AWS SDK, no table or secret client', async () => {
    expect((await readdir(asset)).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    const source = await readFile(join(asset, 'index.mjs'), 'utf8');
    expect(source).not.toMatch(/DynamoDB|SecretsManager|@aws-sdk/);
    expect((await stat(join(asset, 'index.mjs'))).size).toBeLessThan(512 * 1024);
  });

  it('keeps a file written in one invocation for the next one of the same session, and no other session sees it', async () => {
    const a = { sessionId: '20261203_220000_aaaaaaaa' };
    const b = { sessionId: '20261203_220000_bbbbbbbb' };
    expect(
      await timed('write, new workspace', () => sandbox.run(a, { op: 'write', path: 'notes/todo.txt', content: 'buy milk\n' })),
    ).toEqual({ bytesWritten: 9 });
    expect(
      await timed('read, current copy', () => sandbox.run(a, { op: 'read', path: 'notes/todo.txt', limitBytes: 1000 })),
    ).toEqual({ content: 'buy milk\n', truncated: false });
    const run = await timed('exec, current copy', () =>
      sandbox.run(a, { op: 'exec', command: 'cat notes/todo.txt && echo more >> notes/todo.txt', timeoutSeconds: 10 }),
    );
    expect(run).toEqual({ output: 'buy milk\n', exitCode: 0, timedOut: false });
    // Another session: its own (empty) workspace, restored over this environment's copy.
    await expect(sandbox.run(b, { op: 'read', path: 'notes/todo.txt', limitBytes: 1000 })).rejects.toThrow(SandboxError);
    await expect(sandbox.run(b, { op: 'read', path: 'notes/todo.txt', limitBytes: 1000 })).rejects.toThrow(
      /No such file or directory/,
    );
    expect(await sandbox.run(b, { op: 'exec', command: 'ls -A; pwd', timeoutSeconds: 10 })).toEqual({
      output: `${join(firstTmp, 'hookgate-workspace')}\n`,
      exitCode: 0,
      timedOut: false,
    });
    // And back: a's workspace, as a's last call left it.
    expect(await sandbox.run(a, { op: 'read', path: 'notes/todo.txt', limitBytes: 1000 })).toEqual({
      content: 'buy milk\nmore\n',
      truncated: false,
    });
    expect(lambdaApi.tenants).toEqual(expect.arrayContaining([a.sessionId, b.sessionId]));
  });

  it('restores the workspace in a fresh execution environment from S3 alone', async () => {
    const session = { sessionId: '20261203_220000_cccccccc' };
    await sandbox.run(session, { op: 'write', path: 'data.txt', content: 'persisted' });
    await sandbox.run(session, { op: 'exec', command: 'chmod +x data.txt; ln -s data.txt link.txt', timeoutSeconds: 10 });
    const previous = environment;
    environment = await importEnvironment(asset, await mkdtemp(join(buildDir, 'env-b-')), 'b');
    try {
      const run = await timed('exec, restored from S3', () =>
        sandbox.run(session, { op: 'exec', command: 'cat link.txt; test -x data.txt && echo executable', timeoutSeconds: 10 }),
      );
      expect(run.output).toBe('persistedexecutable\n');
    } finally {
      environment = previous;
    }
  });

  it("gives commands the terminal environment only: not the function's own variables or its role's key", async () => {
    const run = await sandbox.run(
      { sessionId: '20261203_220000_dddddddd' },
      { op: 'exec', command: 'env; cat /proc/self/environ | tr "\\0" "\\n"', timeoutSeconds: 10 },
    );
    expect(process.env.HOOKGATE_PLANTED).toBe(PLANTED.HOOKGATE_PLANTED); // there to leak, in the function's process
    expect(run.output).not.toContain(PLANTED.AWS_SECRET_ACCESS_KEY);
    expect(run.output).not.toContain(PLANTED.HOOKGATE_PLANTED);
    expect(run.output).toContain('HOME=');
  });

  it('unpacks a hostile archive without writing outside the workspace (.., absolute paths, symlinks, hard links, FIFOs)', async () => {
    const session = { sessionId: '20261203_220000_eeeeeeee' };
    const outside = await mkdtemp(join(buildDir, 'outside-'));
    const archive = gzipSync(
      Buffer.concat([
        tarEntry({ path: '../escape.txt', type: 'File' }, Buffer.from('escaped')),
        tarEntry({ path: join(outside, 'absolute.txt'), type: 'File' }, Buffer.from('absolute')),
        tarEntry({ path: 'link', type: 'SymbolicLink', linkpath: outside }),
        tarEntry({ path: 'link/through.txt', type: 'File' }, Buffer.from('through a symlink')),
        tarEntry({ path: 'hard-passwd', type: 'Link', linkpath: '/etc/passwd' }),
        tarEntry({ path: 'hard-up', type: 'Link', linkpath: '../escape.txt' }),
        tarEntry({ path: 'fifo', type: 'FIFO' }),
        tarEntry({ path: 'fine.txt', type: 'File' }, Buffer.from('fine')),
        Buffer.alloc(1024),
      ]),
    );
    // What a chat user holding this session's PUT URL could upload.
    const putUrl = await getSignedUrl(
      s3,
      new PutObjectCommand({ Bucket: aws.payloadBucket, Key: workspaceKey(session.sessionId) }),
      { expiresIn: 60 },
    );
    expect((await fetch(putUrl, { method: 'PUT', body: archive })).ok).toBe(true);
    const run = await sandbox.run(session, { op: 'exec', command: 'find . -mindepth 1 | sort', timeoutSeconds: 10 });
    expect(await readdir(outside)).toEqual([]);
    expect(existsSync(join(firstTmp, 'escape.txt'))).toBe(false);
    const listed = run.output.trim().split('\n');
    expect(listed).toContain('./fine.txt');
    for (const name of ['./hard-passwd', './hard-up', './fifo', './link/through.txt']) expect(listed).not.toContain(name);
    // Whatever `link` became, nothing went through it.
    expect(await readdir(outside)).toEqual([]);
  });

  it("maps Lambda's failures to errors the model sees: a crash, a timeout, a refused tenant", async () => {
    const session = { sessionId: '20261203_220000_ffffffff' };
    const crashing = environment;
    environment = async () => {
      throw new RangeError('boom inside');
    };
    try {
      await expect(sandbox.run(session, { op: 'exec', command: 'true', timeoutSeconds: 5 })).rejects.toThrow(
        /the tools function failed \(RangeError\): boom inside/,
      );
    } finally {
      environment = crashing;
    }
    const timingOut = createLambdaSandbox({
      functionName: 'tools-timeout',
      bucket: aws.payloadBucket,
      lambda: new LambdaClient({ region: aws.region, credentials: aws.credentials, endpoint: lambdaApi.url }),
      s3,
    });
    await expect(timingOut.run(session, { op: 'exec', command: 'sleep 200', timeoutSeconds: 600 })).rejects.toThrow(/timed out/);
    // A command's timeout is cut to what the tools function can hold (90 s), whatever the tool asked.
    expect(lambdaApi.events.at(-1)).toMatchObject({ request: { op: 'exec', command: 'sleep 200', timeoutSeconds: 90 } });
    await expect(sandbox.run(session, { op: 'write', path: 'big', content: 'x'.repeat(7 * 1024 * 1024) })).rejects.toThrow(
      /over the 6291456 bytes a tools call can carry/,
    );
    // The handler itself refuses an invocation whose tenant is not the request's session.
    const answer = await environment(
      {
        sessionId: session.sessionId,
        request: { op: 'exec', command: 'true', timeoutSeconds: 5 },
        workspace: { getUrl: 'http://127.0.0.1:1/x', putUrl: 'http://127.0.0.1:1/x' },
      },
      { tenantId: tenantIdOf('20261203_220000_00000000') },
    );
    expect(answer).toEqual({ ok: false, error: expect.stringMatching(/another session/) });
    expect(await environment({ nonsense: true }, {})).toEqual({ ok: false, error: expect.stringMatching(/malformed request/) });
  });
});
