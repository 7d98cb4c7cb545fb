import * as z from '../validation/zod.ts';
import type { DataPlaneResources } from '../pipeline/data-plane.ts';
import { RESOURCE_ENV } from '../pipeline/resource-env.ts';
import { parseAllowedUsers, type AllowedUsers } from './allowed-users.ts';
import { ConfigError } from './config-error.ts';
import { httpUrl, token } from '../platforms/env-formats.ts';
import {
  ANY_PLATFORMS,
  PLATFORM_NAMES,
  type InboundPlatforms,
  type PlatformName,
  type ReplyPlatforms,
} from '../platforms/registry.ts';
import { LOG_THRESHOLDS, parseLogThreshold, type LogThreshold } from '../logging/log-threshold.ts';

/** The chat platforms the gateway serves (architecture §4), `local` included: platforms/registry.ts. */
export { PLATFORM_NAMES, type PlatformName, type ReplyPlatforms } from '../platforms/registry.ts';

/** `HOOKGATE_LOG_LEVEL` (case-insensitive; `warning` is read as `warn`): logging/log-threshold.ts. */
export type LogLevelName = LogThreshold;

/**
 * Where the deployment's AWS resources are. A deployed function reads the names the stack sets
 * (RESOURCE_ENV; region, credentials and endpoints are the SDK's defaults); `hookgate dev` and
 * tests put the emulators' endpoints and credentials in (`dataPlaneFromLocalAws`). Unset ones
 * are absent: `dataPlaneFromConfig` names the first one the data plane needs.
 */
export interface DeploymentResources extends Partial<DataPlaneResources> {
  /** `HOOKGATE_DEPLOYMENT_VERSION` (gateway:startup fires once per version); `local` when unset. */
  deploymentVersion: string;
  /** The observer events queue and the three DLQs: set on the gateway only for the console (`-c console=true`). */
  eventsQueueUrl?: string;
  turnsDlqUrl?: string;
  timersDlqUrl?: string;
  eventsDlqUrl?: string;
  /** The tools function and the workspace bucket: set on the turn function, whose tools run there. */
  toolsFunctionName?: string;
  workspaceBucket?: string;
}

/**
 * The configuration of a deployment — of all three functions and of `hookgate dev` — parsed
 * from the environment once per cold start (`loadDeploymentConfig`) and validated there.
 */
export interface DeploymentConfig {
  /** `local` under `hookgate dev` (and outside Lambda), `aws` in a deployed function. */
  runtime: 'local' | 'aws';
  /** Bearer token for `/v1/*`; unset = the `/v1` API is closed. */
  apiToken?: string;
  /** `HOOKGATE_CONSOLE=1`: the deployed gateway serves the console at `/console` (behind `apiToken`). Off by default. */
  console?: true;
  /** Unset = everyone in local runs, no one in AWS. */
  allowedUsers?: AllowedUsers;
  /** `HOOKGATE_APPROVERS`: operators who may answer any approval and grant `always` globally. Unset = no one. */
  approvers?: AllowedUsers;
  /** What a sender who is not allowed gets: a clear refusal, or nothing. */
  unauthorisedReply: 'refuse' | 'silent';
  /** Each enabled platform's inbound configuration (platforms/registry.ts). */
  platforms: InboundPlatforms;
  /** Platforms left off, and which variables they lack (for the start-up log). */
  disabled: { platform: PlatformName; missing: string[] }[];
  /**
   * Each platform whose reply credentials are set, with those alone: what the turn function
   * replies with. It reads only the reply secret, so `platforms` (which needs the inbound
   * verification secrets too) is empty there.
   */
  replyPlatforms: ReplyPlatforms;
  model: { name?: string; baseUrl?: string; apiKey?: string };
  /** `HOOKGATE_HTTP_HOOK_SECRET`: the key http hook requests are signed with (docs/reference/http-hooks.md). Unset = unsigned. */
  httpHookSecret?: string;
  /**
   * `HOOKGATE_TRANSCRIPTION_BASE_URL` (+ `HOOKGATE_TRANSCRIPTION_MODEL`, default `whisper-1`): an
   * OpenAI-compatible `/audio/transcriptions` endpoint for voice notes, called with
   * `HOOKGATE_MODEL_API_KEY`. Unset = audio is not transcribed (docs/attachments.md).
   */
  transcription?: { baseUrl: string; model: string; apiKey?: string };
  /** `HOOKGATE_SESSION_IDLE_SECONDS`: a conversation idle longer starts a new session (finalize reason `session_expired`). Unset = never. */
  sessionIdleSeconds?: number;
  /**
   * `HOOKGATE_TRANSCRIPT_RETENTION_DAYS` (1–3650): a transcript message expires this long after it was
   * written, its session's counter this long after the last one (the stack sets 90 unless
   * `-c transcriptRetentionDays=none`). Unset = kept for ever.
   */
  transcriptRetentionDays?: number;
  /** `HOOKGATE_REPLY_ATTEMPTS`, `HOOKGATE_REPLY_BACKOFF_MS`, `HOOKGATE_REPLY_MAX_DELAY_MS`: how platform sends are retried (defaults in reply-retry.ts). */
  replyRetry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** `HOOKGATE_LOG_LEVEL` of the functions' structured loggers; default `info`. */
  logLevel: LogLevelName;
  /** Where this deployment's AWS resources are (set by the stack, or by `hookgate dev`). */
  resources: DeploymentResources;
  /**
   * `HOOKGATE_OTLP_ENDPOINT` (the OTLP/HTTP base URL; `/v1/traces` and `/v1/metrics` are added),
   * `HOOKGATE_OTLP_HEADERS` (`k=v,k2=v2`, e.g. an API key; from the deployment secret) and the
   * standard `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf`, the default, or `http/json`).
   * Unset = no OTLP export (docs/telemetry.md).
   */
  otlp?: OtlpConfig;
}

export interface OtlpConfig {
  endpoint: string;
  headers: Record<string, string>;
  protocol: 'http/protobuf' | 'http/json';
}

const FORMATS: Record<string, z.ZodMiniType<string>> = {
  // Any length is taken; a short one is named at start-up (short-api-token.ts).
  HOOKGATE_API_TOKEN: token,
  HOOKGATE_MODEL: z.string().check(z.minLength(1)),
  HOOKGATE_MODEL_BASE_URL: httpUrl,
  AWS_ENDPOINT_URL_SQS: httpUrl,
  AWS_ENDPOINT_URL: httpUrl,
  HOOKGATE_MODEL_API_KEY: z.string().check(z.minLength(1)),
  // Any length is taken; a short key draws a warning where the http hooks register (register-shell-hooks.ts).
  HOOKGATE_HTTP_HOOK_SECRET: z.string().check(z.minLength(1)),
  HOOKGATE_TRANSCRIPTION_BASE_URL: httpUrl,
  HOOKGATE_TRANSCRIPTION_MODEL: z.string().check(z.minLength(1)),
  HOOKGATE_SESSION_IDLE_SECONDS: z.string().check(z.regex(/^[1-9]\d*$/, { error: 'must be a whole number of seconds ≥ 1' })),
  HOOKGATE_TRANSCRIPT_RETENTION_DAYS: z.string().check(
    z.refine((days) => /^[1-9]\d{0,3}$/.test(days) && Number(days) <= 3650, {
      error: 'must be a whole number of days from 1 to 3650',
    }),
  ),
  HOOKGATE_REPLY_ATTEMPTS: z.string().check(z.regex(/^([1-9]|10)$/, { error: 'must be a whole number from 1 to 10' })),
  HOOKGATE_REPLY_BACKOFF_MS: z
    .string()
    .check(z.regex(/^\d{1,6}$/, { error: 'must be a whole number of milliseconds (≤ 999999)' })),
  HOOKGATE_REPLY_MAX_DELAY_MS: z
    .string()
    .check(z.regex(/^\d{1,6}$/, { error: 'must be a whole number of milliseconds (≤ 999999)' })),
  HOOKGATE_UNAUTHORISED_REPLY: z.enum(['refuse', 'silent'], { error: 'must be refuse or silent' }),
  HOOKGATE_LOG_LEVEL: z.pipe(
    z.pipe(
      z.string(),
      z.transform((level: string) => parseLogThreshold(level) ?? level),
    ),
    z.enum(LOG_THRESHOLDS, { error: `must be one of ${LOG_THRESHOLDS.join(', ')}` }),
  ),
  // The stack's resource names (architecture §4): CloudFormation makes them; a hand-set one is checked.
  [RESOURCE_ENV.tableName]: z.string().check(z.regex(/^[A-Za-z0-9_.-]{3,255}$/, { error: 'must be a DynamoDB table name' })),
  [RESOURCE_ENV.turnsQueueUrl]: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  [RESOURCE_ENV.timersQueueUrl]: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  [RESOURCE_ENV.eventsTopicArn]: z
    .string()
    .check(z.regex(/^arn:[^:\s]+:sns:[^:\s]*:\d*:[^:\s]+$/, { error: 'must be an SNS topic ARN' })),
  [RESOURCE_ENV.payloadBucket]: z
    .string()
    .check(z.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be an S3 bucket name' })),
  HOOKGATE_CONSOLE: z.enum(['true', 'false', '1', '0'], { error: 'must be 1 or 0' }),
  HOOKGATE_OTLP_ENDPOINT: httpUrl,
  HOOKGATE_OTLP_HEADERS: z
    .string()
    .check(z.regex(/^\s*[^=,\s][^=,]*=[^,]*(,\s*[^=,\s][^=,]*=[^,]*)*$/, { error: 'must be k=v pairs separated by commas' })),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json'], { error: 'must be http/protobuf or http/json' }),
  [RESOURCE_ENV.eventsQueueUrl]: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  [RESOURCE_ENV.turnsDlqUrl]: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  [RESOURCE_ENV.timersDlqUrl]: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  [RESOURCE_ENV.eventsDlqUrl]: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  [RESOURCE_ENV.toolsFunctionName]: z
    .string()
    .check(z.regex(/^(arn:[^\s]+|[A-Za-z0-9_-]{1,64})$/, { error: 'must be a Lambda function name or ARN' })),
  [RESOURCE_ENV.workspaceBucket]: z
    .string()
    .check(z.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be an S3 bucket name' })),
  // Each platform's own variables (platforms/<name>/<name>-config.ts).
  ...Object.assign({}, ...ANY_PLATFORMS.map((platform) => platform.env)),
};

/** Reads one variable: `undefined` when unset or empty, the validated value otherwise. */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const format = FORMATS[name] ?? z.string();
  const parsed = format.safeParse(raw.trim());
  if (!parsed.success) throw new ConfigError(name, parsed.error.issues[0]?.message ?? 'is malformed');
  return parsed.data;
}

export interface LoadDeploymentConfigOptions {
  /** Default: `aws` inside Lambda (AWS_LAMBDA_FUNCTION_NAME set), `local` elsewhere. */
  runtime?: 'local' | 'aws';
}

/**
 * The environment, parsed once: every variable of architecture §4 and the stack's resource
 * names, each validated. A platform whose variables are missing is disabled (listed in
 * `disabled`, for a clear log line); a malformed variable throws a `ConfigError` naming it
 * (never its value). A function calls it once per cold start and builds everything from the
 * result (`createRuntime`); nothing else reads these variables.
 *
 * @example
 * const config = loadDeploymentConfig(process.env, { runtime: 'local' });
 * for (const { platform, missing } of config.disabled) log.info(`${platform} off: set ${missing.join(', ')}`);
 */
export function loadDeploymentConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadDeploymentConfigOptions = {},
): DeploymentConfig {
  const runtime = options.runtime ?? (env.AWS_LAMBDA_FUNCTION_NAME ? 'aws' : 'local');
  const disabled: DeploymentConfig['disabled'] = [];
  const platforms: Partial<Record<string, unknown>> = {};
  const replyPlatforms: Partial<Record<string, unknown>> = {};
  const readEnv = (name: string) => read(env, name);
  for (const platform of ANY_PLATFORMS) {
    const settings = platform.loadInbound(readEnv, runtime);
    if ('config' in settings) platforms[platform.name] = settings.config;
    else disabled.push({ platform: platform.name as PlatformName, missing: [...settings.missing] });
  }
  // Reply credentials alone: the turn function, which reads only the reply secret, answers with them.
  for (const platform of ANY_PLATFORMS) {
    const settings = platform.loadReply(readEnv, runtime);
    if (settings !== undefined) replyPlatforms[platform.name] = settings;
  }
  const apiToken = read(env, 'HOOKGATE_API_TOKEN');
  const consoleFlag = read(env, 'HOOKGATE_CONSOLE');
  const allowedUsers = parseAllowedUsers(env.HOOKGATE_ALLOWED_USERS);
  const approvers = parseAllowedUsers(env.HOOKGATE_APPROVERS, 'HOOKGATE_APPROVERS');
  const idle = read(env, 'HOOKGATE_SESSION_IDLE_SECONDS');
  const transcriptDays = read(env, 'HOOKGATE_TRANSCRIPT_RETENTION_DAYS');
  const httpHookSecret = read(env, 'HOOKGATE_HTTP_HOOK_SECRET');
  const transcriptionUrl = read(env, 'HOOKGATE_TRANSCRIPTION_BASE_URL');
  const transcriptionModel = read(env, 'HOOKGATE_TRANSCRIPTION_MODEL') ?? 'whisper-1';
  const modelKey = read(env, 'HOOKGATE_MODEL_API_KEY');
  return {
    runtime,
    ...(apiToken ? { apiToken } : {}),
    ...(consoleFlag === 'true' || consoleFlag === '1' ? { console: true as const } : {}),
    ...(allowedUsers ? { allowedUsers } : {}),
    ...(approvers ? { approvers } : {}),
    unauthorisedReply: (read(env, 'HOOKGATE_UNAUTHORISED_REPLY') as 'refuse' | 'silent' | undefined) ?? 'refuse',
    platforms: platforms as InboundPlatforms,
    disabled,
    replyPlatforms: replyPlatforms as ReplyPlatforms,
    model: loadModelConfig(env),
    ...(httpHookSecret ? { httpHookSecret } : {}),
    ...(transcriptionUrl
      ? { transcription: { baseUrl: transcriptionUrl, model: transcriptionModel, ...(modelKey ? { apiKey: modelKey } : {}) } }
      : {}),
    ...(idle ? { sessionIdleSeconds: Number(idle) } : {}),
    ...(transcriptDays ? { transcriptRetentionDays: Number(transcriptDays) } : {}),
    replyRetry: replyRetryFrom(env),
    logLevel: (read(env, 'HOOKGATE_LOG_LEVEL') as LogLevelName | undefined) ?? 'info',
    resources: loadDeploymentResources(env),
    ...otlpFrom(env),
  };
}

/** The OTLP export settings; none without `HOOKGATE_OTLP_ENDPOINT`. */
function otlpFrom(env: NodeJS.ProcessEnv): { otlp?: OtlpConfig } {
  const endpoint = read(env, 'HOOKGATE_OTLP_ENDPOINT');
  const headersText = read(env, 'HOOKGATE_OTLP_HEADERS');
  const protocol = (read(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') as OtlpConfig['protocol'] | undefined) ?? 'http/protobuf';
  if (!endpoint) return {};
  const headers: Record<string, string> = {};
  for (const pair of headersText?.split(',') ?? []) {
    const at = pair.indexOf('=');
    headers[pair.slice(0, at).trim()] = percentDecoded(pair.slice(at + 1).trim());
  }
  return { otlp: { endpoint, headers, protocol } };
}

/** Header values are percent-encoded, as in OTEL_EXPORTER_OTLP_HEADERS; a stray `%` is kept as written. */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The model part of the deployment config alone (`HOOKGATE_MODEL`, `HOOKGATE_MODEL_BASE_URL`,
 * `HOOKGATE_MODEL_API_KEY`), validated the same way: for code that runs a model outside a
 * function's composition root, such as a gateway hook's one-shot agent.
 *
 * @example
 * const transport = modelFromConfig(loadModelConfig(process.env));
 */
export function loadModelConfig(env: NodeJS.ProcessEnv = process.env): DeploymentConfig['model'] {
  const model = {
    name: read(env, 'HOOKGATE_MODEL'),
    baseUrl: read(env, 'HOOKGATE_MODEL_BASE_URL'),
    apiKey: read(env, 'HOOKGATE_MODEL_API_KEY'),
  };
  return Object.fromEntries(Object.entries(model).filter(([, v]) => v !== undefined)) as DeploymentConfig['model'];
}

/**
 * The stack's resource names alone (architecture §4), validated the same way: for the CLI,
 * which finds queues from the environment without being a deployed function.
 *
 * @example
 * const { eventsDlqUrl, eventsQueueUrl } = loadDeploymentResources(process.env);
 */
export function loadDeploymentResources(env: NodeJS.ProcessEnv = process.env): DeploymentResources {
  const resources: DeploymentResources = { deploymentVersion: read(env, RESOURCE_ENV.deploymentVersion) ?? 'local' };
  for (const key of [
    'tableName',
    'turnsQueueUrl',
    'timersQueueUrl',
    'eventsTopicArn',
    'payloadBucket',
    'eventsQueueUrl',
    'turnsDlqUrl',
    'timersDlqUrl',
    'eventsDlqUrl',
    'toolsFunctionName',
    'workspaceBucket',
  ] as const) {
    const value = read(env, RESOURCE_ENV[key]);
    if (value !== undefined) resources[key] = value;
  }
  const sqsEndpoint = sqsEndpointOverride(env);
  if (sqsEndpoint !== undefined) resources.endpoints = { sqs: sqsEndpoint };
  return resources;
}

/**
 * The SQS endpoint an operator configured for the SDK (`AWS_ENDPOINT_URL_SQS`, else
 * `AWS_ENDPOINT_URL`; none when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true`, as the SDK reads
 * them), for an SQS client to be given outright. The SDK applies every other service's override
 * itself, but sends SQS requests to the queue URL's host unless the client has an endpoint, so a
 * VPC endpoint or an emulator would be bypassed for the queues. (The shared config file's
 * `endpoint_url` is left to the SDK: the functions have none.)
 *
 * @example
 * const endpoint = sqsEndpointOverride(process.env);
 * const sqs = new SQSClient(endpoint ? { endpoint } : {});
 */
export function sqsEndpointOverride(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS?.trim() === 'true') return undefined;
  return read(env, 'AWS_ENDPOINT_URL_SQS') ?? read(env, 'AWS_ENDPOINT_URL');
}

function replyRetryFrom(env: NodeJS.ProcessEnv): DeploymentConfig['replyRetry'] {
  const number = (name: string) => {
    const value = read(env, name);
    return value === undefined ? undefined : Number(value);
  };
  const policy = {
    attempts: number('HOOKGATE_REPLY_ATTEMPTS'),
    baseDelayMs: number('HOOKGATE_REPLY_BACKOFF_MS'),
    maxDelayMs: number('HOOKGATE_REPLY_MAX_DELAY_MS'),
  };
  return Object.fromEntries(Object.entries(policy).filter(([, v]) => v !== undefined));
}

/** The enabled platforms, in the fixed order (the `platforms` context of gateway:startup). */
export function enabledPlatforms(config: DeploymentConfig): PlatformName[] {
  return PLATFORM_NAMES.filter((name) => config.platforms[name] !== undefined);
}
