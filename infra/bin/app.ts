import { App } from 'aws-cdk-lib';
import { HookgateStack } from '../lib/hookgate-stack.ts';
import { checkContextKeys, readStackContext, StackContextError } from '../lib/stack-context.ts';
import { HooksHomeBuildError, prepareHooksBundle } from '../lib/hooks-bundle.ts';
import { TelemetrySubscribersContextError } from '../lib/telemetry-subscribers.ts';

// `npx cdk deploy -c hooksHome=~/.hermes` — see README "Deploy".
const app = new App();
let context;
let hooksBundle;
try {
  for (const key of checkContextKeys(Object.keys(app.node.getAllContext())))
    process.stderr.write(`hookgate: -c ${key} is not an option of this stack; ignored (docs/deploy.md lists them)\n`);
  context = readStackContext((key) => app.node.tryGetContext(key));
  hooksBundle = context.hooksHome
    ? await prepareHooksBundle(context.hooksHome, {
        approveShellHooks: context.approveShellHooks,
        allowHooksMissingInLambda: context.allowHooksMissingInLambda,
      })
    : undefined;
} catch (error) {
  // A bad option or hooks home is the operator's to fix: the message, not a stack trace.
  if (
    error instanceof HooksHomeBuildError ||
    error instanceof StackContextError ||
    error instanceof TelemetrySubscribersContextError
  ) {
    process.stderr.write(`hookgate: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
if (context.alarms === 'none')
  process.stderr.write('hookgate: -c alarms=none: this stack has no alarms; nobody is told when turns fail\n');
new HookgateStack(app, context.stackName, {
  dataRemovalPolicy: context.dataRemovalPolicy,
  telemetrySubscribers: context.telemetrySubscribers,
  ...(hooksBundle ? { hooksBundle } : {}),
  settings: context.settings,
  ...(context.gatewayConcurrency !== undefined ? { gatewayConcurrency: context.gatewayConcurrency } : {}),
  turnConcurrency: context.turnConcurrency,
  observerConcurrency: context.observerConcurrency,
  console: context.console,
  toolsNetwork: context.toolsNetwork,
  ...(context.otlpEndpoint ? { otlpEndpoint: context.otlpEndpoint } : {}),
  alarms: context.alarms,
  ingress: context.ingress,
  description: 'hookgate: Hermes-compatible agent hooks as a serverless event pipeline',
});
app.synth();
