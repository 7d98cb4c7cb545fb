import { createHash } from 'node:crypto';
import { InvokeCommand, LambdaClient, type LambdaClientConfig } from '@aws-sdk/client-lambda';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AWS_REQUEST_TIMEOUTS } from '../../pipeline/aws-request-timeouts.ts';
import * as z from '../../validation/zod.ts';
import {
  SandboxError,
  type SandboxRequest,
  type SandboxResultOf,
  type SandboxSession,
  type ToolSandbox,
} from './tool-sandbox.ts';
import {
  SandboxResultSchemas,
  TOOLS_EXEC_MAX_SECONDS,
  ToolsFunctionAnswerSchema,
  tenantIdOf,
  WORKSPACE_KEY_PREFIX,
  type ToolsFunctionEvent,
} from './tools-function-protocol.ts';

/** How long a presigned workspace URL is good for: past the tools function's 120 s timeout, not much more. */
export const WORKSPACE_URL_SECONDS = 300;
/** Lambda's cap on a synchronous invocation's request and response payload. */
const INVOKE_PAYLOAD_BYTES = 6 * 1024 * 1024;

export interface LambdaSandboxOptions {
  /** The tools function (functions/tools.ts), by name or ARN. */
  functionName: string;
  /** The workspace bucket; archives go under `WORKSPACE_KEY_PREFIX`. */
  bucket: string;
  /** Default: {@link toolsFunctionClient}, region and credentials from the function's environment. */
  lambda?: LambdaClient;
  s3?: S3Client;
  urlExpiresSeconds?: number;
}

/**
 * `kind: lambda`, the sandbox of a deployed turn function: every request runs in the tools
 * function, invoked synchronously with the session id as the Lambda tenant id, so one execution
 * environment never serves two sessions and the turn function spawns nothing a chat user steers.
 * Per request it signs a short-lived GET/PUT pair for the session's workspace archive (the tools
 * function has no S3 permission), validates the answer (zod), and turns every failure — a
 * refusal inside, a function error, a timeout, a workspace over its cap, a throttle — into a
 * `SandboxError` the model sees. Commands run at most `TOOLS_EXEC_MAX_SECONDS`.
 *
 * @example
 * const sandbox = createLambdaSandbox({ functionName: 'hookgate-tools', bucket: 'hookgate-workspaces-abc' });
 * await sandbox.run({ sessionId }, { op: 'exec', command: 'ls', timeoutSeconds: 60 });
 */
export function createLambdaSandbox(options: LambdaSandboxOptions): ToolSandbox {
  const lambda = options.lambda ?? toolsFunctionClient();
  const s3 = options.s3 ?? new S3Client({});
  const expiresIn = options.urlExpiresSeconds ?? WORKSPACE_URL_SECONDS;
  return {
    kind: 'lambda',
    async run<R extends SandboxRequest>(session: SandboxSession, request: R, signal?: AbortSignal): Promise<SandboxResultOf<R>> {
      const key = workspaceKey(session.sessionId);
      const [getUrl, putUrl] = await Promise.all([
        getSignedUrl(s3, new GetObjectCommand({ Bucket: options.bucket, Key: key }), { expiresIn }),
        getSignedUrl(s3, new PutObjectCommand({ Bucket: options.bucket, Key: key }), { expiresIn }),
      ]);
      const sent: SandboxRequest =
        request.op === 'exec'
          ? { ...request, timeoutSeconds: Math.min(request.timeoutSeconds, TOOLS_EXEC_MAX_SECONDS) }
          : request;
      const event: ToolsFunctionEvent = { sessionId: session.sessionId, request: sent, workspace: { getUrl, putUrl } };
      const payload = Buffer.from(JSON.stringify(event));
      if (payload.length > INVOKE_PAYLOAD_BYTES) {
        throw new SandboxError(
          `the request is ${payload.length} bytes, over the ${INVOKE_PAYLOAD_BYTES} bytes a tools call can carry; nothing was run`,
        );
      }
      let answer;
      try {
        answer = await lambda.send(
          new InvokeCommand({
            FunctionName: options.functionName,
            InvocationType: 'RequestResponse',
            TenantId: tenantIdOf(session.sessionId),
            Payload: payload,
          }),
          signal ? { abortSignal: signal } : {},
        );
      } catch (error) {
        if (signal?.aborted) throw new SandboxError('the tool call was stopped before the tools function answered');
        const { name, message } = error as Error;
        throw new SandboxError(`the tools function could not be invoked (${name}: ${message}); nothing was run`);
      }
      const text = answer.Payload ? Buffer.from(answer.Payload).toString('utf8') : '';
      if (answer.FunctionError) throw functionError(text);
      const parsed = ToolsFunctionAnswerSchema.safeParse(safeJson(text));
      if (!parsed.success) throw new SandboxError('the tools function answered something that is not a tools answer');
      if (!parsed.data.ok) throw new SandboxError(parsed.data.error);
      const result = SandboxResultSchemas[request.op].safeParse(parsed.data.result);
      if (!result.success) throw new SandboxError(`the tools function answered a malformed ${request.op} result`);
      return result.data as SandboxResultOf<R>;
    },
  };
}

/**
 * The client a turn function invokes the tools function with. One attempt: a retried invoke
 * could run a command twice (`echo >> file`), and a throttle is the model's to hear. A limit on
 * connecting (`AWS_REQUEST_TIMEOUTS.connectMs`): an invoke that never connected ran nothing, and
 * without the limit a connection the network drops unanswered (a security group, a dead route)
 * holds the tool call until the turn's deadline. No limit on silence: a synchronous invoke is
 * silent while the command runs, and the turn's abort signal already bounds that wait.
 *
 * @example
 * const sandbox = createLambdaSandbox({ functionName, bucket, lambda: toolsFunctionClient({ region: 'eu-west-1' }) });
 */
export function toolsFunctionClient(config: LambdaClientConfig = {}): LambdaClient {
  return new LambdaClient({
    maxAttempts: 1,
    requestHandler: { connectionTimeout: AWS_REQUEST_TIMEOUTS.connectMs },
    ...config,
  });
}

/**
 * The sandbox a deployed turn function gets: the tools function when the stack named it (and
 * the workspace bucket), and otherwise one that refuses every tool call with the fix — never the
 * turn function's own process.
 *
 * @example
 * const sandbox = lambdaToolSandbox(config.resources); // kind 'lambda' or 'unavailable'
 */
export function lambdaToolSandbox(resources: { toolsFunctionName?: string; workspaceBucket?: string }): ToolSandbox {
  const { toolsFunctionName, workspaceBucket } = resources;
  if (toolsFunctionName && workspaceBucket)
    return createLambdaSandbox({ functionName: toolsFunctionName, bucket: workspaceBucket });
  const missing = [!toolsFunctionName && 'HOOKGATE_TOOLS_FUNCTION_NAME', !workspaceBucket && 'HOOKGATE_WORKSPACE_BUCKET']
    .filter(Boolean)
    .join(' and ');
  return {
    kind: 'unavailable',
    run() {
      return Promise.reject(
        new SandboxError(
          `no tool sandbox in this deployment: ${missing} not set on the turn function (deploy the stack, which creates the tools function and sets them); nothing was run`,
        ),
      );
    },
  };
}

/** The S3 key of a session's workspace archive: hashed, so any session id makes a safe, distinct key. */
export function workspaceKey(sessionId: string): string {
  return `${WORKSPACE_KEY_PREFIX}${createHash('sha256').update(sessionId).digest('hex')}.tar.gz`;
}

const LambdaErrorSchema = z.object({ errorType: z.optional(z.string()), errorMessage: z.optional(z.string()) });

function functionError(text: string): SandboxError {
  const parsed = LambdaErrorSchema.safeParse(safeJson(text));
  const message = parsed.success ? (parsed.data.errorMessage ?? '') : '';
  if (/Task timed out/i.test(message)) {
    return new SandboxError(
      'the tools function timed out (the call ran past its 120 s); its changes to the workspace were not saved',
    );
  }
  const type = parsed.success ? parsed.data.errorType : undefined;
  return new SandboxError(
    `the tools function failed${type ? ` (${type})` : ''}: ${message.slice(0, 500) || 'no message'}; its changes to the workspace may not be saved`,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
