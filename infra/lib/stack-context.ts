import { RemovalPolicy } from 'aws-cdk-lib';
import * as z from 'zod';
import { parseTelemetrySubscribers, type TelemetrySubscriber } from './telemetry-subscribers.ts';
import { HookgateError } from '../../src/errors/hookgate-error.ts';
import { suggestHookName } from '../../src/hooks/shell/config/did-you-mean.ts';

/**
 * The turns event source's `maxConcurrency` unless `-c turnConcurrency` says otherwise: ≈ 44 turns a
 * second at peak, ≈ 96,000 daily active chats (docs/capacity.md), while a burst of turns still
 * cannot take all of a default account's 1,000.
 */
export const DEFAULT_TURN_CONCURRENCY = 200;

/**
 * How long transcripts are kept unless `-c transcriptRetentionDays` says otherwise: a turn reads only
 * the newest messages, and a chat's words are not kept for ever by default (docs/security.md).
 */
export const DEFAULT_TRANSCRIPT_RETENTION_DAYS = 90;

/**
 * Lambda pollers per SQS event source at most, unless a setting says otherwise: a burst of timers or
 * events cannot take the account's concurrency. The turns source's is `turnConcurrency`; the events
 * source's default, `observerConcurrency`'s.
 */
export const EVENT_SOURCE_MAX_CONCURRENCY = { timers: 5, events: 10 } as const;

/** The `-c key=value` options of `cdk deploy`, validated (a typo fails synth with its name). */
export interface StackContext {
  stackName: string;
  hooksHome?: string;
  dataRemovalPolicy: RemovalPolicy;
  telemetrySubscribers: TelemetrySubscriber[];
  settings: {
    allowedUsers?: string;
    approvers?: string;
    model?: string;
    modelBaseUrl?: string;
    /** `-c transcriptRetentionDays=N` (1–3650, default {@link DEFAULT_TRANSCRIPT_RETENTION_DAYS}) or `none` (kept for ever). */
    transcriptRetentionDays?: number;
    /** `-c sessionIdleSeconds=N` (≥ 60): a chat idle longer starts a new session (HOOKGATE_SESSION_IDLE_SECONDS). Unset: never. */
    sessionIdleSeconds?: number;
  };
  /**
   * Reserved concurrency of the gateway λ, only when asked (`-c gatewayConcurrency=N`): a flood
   * of forged webhooks cannot starve the rest, but reserving needs N + 100 of the account's quota.
   */
  gatewayConcurrency?: number;
  /**
   * At most this many turn λs at once (`-c turnConcurrency=N`, 2–1000, or `none` for no cap but the
   * account's): the turns event source's `maxConcurrency`. A turn waits ≈ 4.5 s on the model, so N
   * carries N / 4.5 turns a second at peak (docs/capacity.md). Default {@link DEFAULT_TURN_CONCURRENCY}.
   */
  turnConcurrency: number | 'none';
  /**
   * At most this many observer λs at once (`-c observerConcurrency=N`, 2–1000, or `none`): the events
   * source's `maxConcurrency`. Each takes a batch of up to 10 events; with observer hooks that take
   * time, N bounds the events a second the deployment keeps up with (docs/capacity.md). Default 10.
   */
  observerConcurrency: number | 'none';
  /** Where alarms go: `-c alarmEmail`, `-c alarmTopicArn`, or `-c alarms=none` said out loud. */
  alarms: AlarmDestination;
  /** Shell hooks that may ship although the Lambda runtime lacks a program they call. */
  allowHooksMissingInLambda: string[];
  /** The front door: `url` (Function URL, default) or `apigateway` (REST API, with optional WAF and domain). */
  ingress: IngressOptions;
  /** `all`: ship an approval of every enabled shell hook with the deployment (printed at synth). */
  approveShellHooks: 'none' | 'all';
  /** `-c console=true`: the gateway serves the console at /console, behind the /v1 token (off by default). */
  console: boolean;
  /** `-c toolsNetwork=none|internet` (default `none`): the tools function's network (tools-function.ts). */
  toolsNetwork: 'none' | 'internet';
  /** `-c otlpEndpoint=URL`: the observer exports traces and metrics there (HOOKGATE_OTLP_ENDPOINT; docs/telemetry.md). */
  otlpEndpoint?: string;
}

/** An email subscribed to the stack's alarm topic, an existing topic, or no alarms (stated explicitly). */
export type AlarmDestination = { readonly email: string } | { readonly topicArn: string } | 'none';

export type IngressOptions =
  | { readonly kind: 'url' }
  | {
      readonly kind: 'apigateway';
      readonly wafAclArn?: string;
      readonly domain?: { readonly name: string; readonly certificateArn: string };
    };

export class StackContextError extends HookgateError {
  override readonly name = 'StackContextError';
}

const Context = z.object({
  stackName: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/)
    .default('hookgate'),
  hooksHome: z.string().min(1).optional(),
  removalPolicy: z.enum(['retain', 'destroy']).default('retain'),
  telemetrySubscribers: z.unknown().optional(),
  allowedUsers: z.string().optional(),
  approvers: z.string().optional(),
  model: z.string().optional(),
  modelBaseUrl: z.url().optional(),
  gatewayConcurrency: z.coerce.number().int().min(1).max(1000).optional(),
  turnConcurrency: z.union([z.literal('none'), z.coerce.number().int().min(2).max(1000)]).optional(),
  observerConcurrency: z.union([z.literal('none'), z.coerce.number().int().min(2).max(1000)]).optional(),
  transcriptRetentionDays: z.union([z.literal('none'), z.coerce.number().int().min(1).max(3650)]).optional(),
  sessionIdleSeconds: z.coerce
    .number()
    .int()
    .min(60)
    .max(366 * 86_400)
    .optional(),
  alarmEmail: z.email().optional(),
  alarmTopicArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_.-]+$/, 'must be an SNS topic ARN')
    .optional(),
  alarms: z.literal('none').optional(),
  allowHooksMissingInLambda: z.string().optional(),
  ingress: z.enum(['url', 'apigateway']).default('url'),
  wafAclArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:wafv2:[a-z0-9-]+:\d{12}:regional\/webacl\/.+/, 'must be a regional WAFv2 web ACL ARN')
    .optional(),
  domainName: z
    .string()
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a DNS name')
    .optional(),
  certificateArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/.+/, 'must be an ACM certificate ARN')
    .optional(),
  approveShellHooks: z.enum(['none', 'all']).default('none'),
  console: z.union([z.boolean(), z.enum(['true', 'false'])]).default(false),
  toolsNetwork: z.enum(['none', 'internet']).default('none'),
  otlpEndpoint: z.url({ protocol: /^https?$/ }).optional(),
});

/** How close a key must be to an option to be taken for its typo (`turnConcurency`: 0.97, `hooksHom`: 0.94). */
const CONTEXT_KEY_CUTOFF = 0.8;

/** Context keys CDK itself may pass that are neither namespaced (`aws:cdk:…`, `@aws-cdk/…:…`) nor options of this stack. */
const CDK_PLAIN_KEYS: ReadonlySet<string> = new Set(['acknowledged-issue-numbers']);

/**
 * Checks the context keys given to the app (`app.node.getAllContext()`): a key close to an option
 * of this stack (`turnConcurency`, `ToolsNetwork`; the hook names' did-you-mean, stricter) fails synth, naming the
 * option, so that a typo does not deploy the default in silence. Any other key that is not
 * namespaced, as CDK's own are, is returned for a warning: it is not an option of this stack.
 *
 * @example
 * checkContextKeys(['turnConcurency']) // throws StackContextError: … did you mean turnConcurrency?
 * checkContextKeys(['@aws-cdk/core:checkSecretUsage', 'alarmEmail', 'team']) // ['team']
 */
export function checkContextKeys(keys: readonly string[]): string[] {
  const options = Object.keys(Context.shape);
  const unknown: string[] = [];
  for (const key of keys) {
    if (options.includes(key) || key.includes(':') || key.startsWith('@') || CDK_PLAIN_KEYS.has(key)) continue;
    // Case aside, and closer than difflib's default cutoff (0.6): `node` (0.67) is not a typo of `model`.
    const lower = options.map((option) => option.toLowerCase());
    const match = suggestHookName(key.toLowerCase(), lower, CONTEXT_KEY_CUTOFF);
    const near = match === undefined ? undefined : options[lower.indexOf(match)];
    if (near) throw new StackContextError(`context ${key}: not an option of this stack; did you mean -c ${near}=…?`);
    unknown.push(key);
  }
  return unknown;
}

export function readStackContext(get: (key: string) => unknown): StackContext {
  const raw = Object.fromEntries(Object.keys(Context.shape).map((key) => [key, get(key) ?? undefined]));
  const parsed = Context.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StackContextError(`context ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const c = parsed.data;
  const destinations = [c.alarmEmail, c.alarmTopicArn, c.alarms].filter((d) => d !== undefined);
  if (destinations.length === 0) {
    throw new StackContextError(
      'no alarm destination: pass -c alarmEmail=ADDRESS or -c alarmTopicArn=ARN, or -c alarms=none to deploy with no alarms at all (nobody would be told of a failing turn)',
    );
  }
  if (destinations.length > 1) throw new StackContextError('context alarmEmail, alarmTopicArn and alarms=none: give one of them');
  if (c.ingress === 'url' && (c.wafAclArn || c.domainName || c.certificateArn)) {
    throw new StackContextError(
      'context wafAclArn, domainName and certificateArn need -c ingress=apigateway (a Function URL takes neither a WAF nor a custom domain)',
    );
  }
  if ((c.domainName === undefined) !== (c.certificateArn === undefined)) {
    throw new StackContextError(
      "context domainName and certificateArn go together (the certificate must cover the domain, in the stack's region)",
    );
  }
  return {
    stackName: c.stackName,
    ...(c.hooksHome ? { hooksHome: c.hooksHome } : {}),
    dataRemovalPolicy: c.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    ...(c.otlpEndpoint ? { otlpEndpoint: c.otlpEndpoint } : {}),
    telemetrySubscribers: parseTelemetrySubscribers(c.telemetrySubscribers),
    settings: {
      ...(c.allowedUsers ? { allowedUsers: c.allowedUsers } : {}),
      ...(c.approvers ? { approvers: c.approvers } : {}),
      ...(c.model ? { model: c.model } : {}),
      ...(c.modelBaseUrl ? { modelBaseUrl: c.modelBaseUrl } : {}),
      ...(c.sessionIdleSeconds !== undefined ? { sessionIdleSeconds: c.sessionIdleSeconds } : {}),
      ...(c.transcriptRetentionDays === 'none'
        ? {}
        : { transcriptRetentionDays: c.transcriptRetentionDays ?? DEFAULT_TRANSCRIPT_RETENTION_DAYS }),
    },
    ...(c.gatewayConcurrency !== undefined ? { gatewayConcurrency: c.gatewayConcurrency } : {}),
    turnConcurrency: c.turnConcurrency ?? DEFAULT_TURN_CONCURRENCY,
    observerConcurrency: c.observerConcurrency ?? EVENT_SOURCE_MAX_CONCURRENCY.events,
    alarms: c.alarmEmail ? { email: c.alarmEmail } : c.alarmTopicArn ? { topicArn: c.alarmTopicArn } : 'none',
    allowHooksMissingInLambda: (c.allowHooksMissingInLambda ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    ingress:
      c.ingress === 'url'
        ? { kind: 'url' }
        : {
            kind: 'apigateway',
            ...(c.wafAclArn ? { wafAclArn: c.wafAclArn } : {}),
            ...(c.domainName && c.certificateArn ? { domain: { name: c.domainName, certificateArn: c.certificateArn } } : {}),
          },
    approveShellHooks: c.approveShellHooks,
    console: c.console === true || c.console === 'true',
    toolsNetwork: c.toolsNetwork,
  };
}
