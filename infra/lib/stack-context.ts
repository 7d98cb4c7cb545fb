import { RemovalPolicy } from 'aws-cdk-lib';
import * as z from 'zod';
import { parseTelemetrySubscribers, type TelemetrySubscriber } from './telemetry-subscribers.ts';
import { HookgateError } from '../../src/errors/hookgate-error.ts';

/** The `-c key=value` options of `cdk deploy`, validated (a typo fails synth with its name). */
export interface StackContext {
  stackName: string;
  hooksHome?: string;
  dataRemovalPolicy: RemovalPolicy;
  telemetrySubscribers: TelemetrySubscriber[];
  settings: { allowedUsers?: string; approvers?: string; model?: string; modelBaseUrl?: string };
  /** Reserved concurrency of the gateway λ: a flood of forged webhooks cannot starve the rest. */
  gatewayConcurrency: number;
  /** Subscribed by email to the alarm topic (confirm the subscription mail once). */
  alarmEmail?: string;
  /** `all`: ship an approval of every enabled shell hook with the deployment (printed at synth). */
  approveShellHooks: 'none' | 'all';
  /** `-c console=true`: the gateway serves the console at /console, behind the /v1 token (off by default). */
  console: boolean;
  /** `-c toolsNetwork=none|internet` (default `none`): the tools function's network (tools-function.ts). */
  toolsNetwork: 'none' | 'internet';
  /** `-c otlpEndpoint=URL`: the observer exports traces and metrics there (HOOKGATE_OTLP_ENDPOINT; docs/telemetry.md). */
  otlpEndpoint?: string;
}

export class StackContextError extends HookgateError {
  override readonly name = 'StackContextError';
}

const Context = z.object({
  stackName: z.string().regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/).default('hookgate'),
  hooksHome: z.string().min(1).optional(),
  removalPolicy: z.enum(['retain', 'destroy']).default('retain'),
  telemetrySubscribers: z.unknown().optional(),
  allowedUsers: z.string().optional(),
  approvers: z.string().optional(),
  model: z.string().optional(),
  modelBaseUrl: z.url().optional(),
  gatewayConcurrency: z.coerce.number().int().min(1).max(1000).default(50),
  alarmEmail: z.email().optional(),
  approveShellHooks: z.enum(['none', 'all']).default('none'),
  console: z.union([z.boolean(), z.enum(['true', 'false'])]).default(false),
  toolsNetwork: z.enum(['none', 'internet']).default('none'),
  otlpEndpoint: z.url({ protocol: /^https?$/ }).optional(),
});

export function readStackContext(get: (key: string) => unknown): StackContext {
  const raw = Object.fromEntries(Object.keys(Context.shape).map((key) => [key, get(key) ?? undefined]));
  const parsed = Context.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StackContextError(`context ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const c = parsed.data;
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
    },
    gatewayConcurrency: c.gatewayConcurrency,
    ...(c.alarmEmail ? { alarmEmail: c.alarmEmail } : {}),
    approveShellHooks: c.approveShellHooks,
    console: c.console === true || c.console === 'true',
    toolsNetwork: c.toolsNetwork,
  };
}
