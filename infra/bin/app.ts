import { App } from 'aws-cdk-lib';
import { HookgateStack } from '../lib/hookgate-stack.ts';
import { readStackContext } from '../lib/stack-context.ts';
import { prepareHooksBundle } from '../lib/hooks-bundle.ts';

// `npx cdk deploy -c hooksHome=~/.hermes` — see README "Deploy".
const app = new App();
const context = readStackContext((key) => app.node.tryGetContext(key));
const hooksBundle = context.hooksHome
  ? await prepareHooksBundle(context.hooksHome, { approveShellHooks: context.approveShellHooks })
  : undefined;
new HookgateStack(app, context.stackName, {
  dataRemovalPolicy: context.dataRemovalPolicy,
  telemetrySubscribers: context.telemetrySubscribers,
  ...(hooksBundle ? { hooksBundle } : {}),
  settings: context.settings,
  gatewayConcurrency: context.gatewayConcurrency,
  ...(context.alarmEmail ? { alarmEmail: context.alarmEmail } : {}),
  description: 'hookgate: Hermes-compatible agent hooks as a serverless event pipeline',
});
app.synth();
