/**
 * Turns off the AWS SDK's notice that its *future* releases will need Node 22, printed on Node 20
 * when a client is first made: the lockfile's SDK runs on Node 20, which `engines` still promises,
 * and the notice would bury every command's output (docs/performance.md § Node versions). Only on
 * Node 20 and only when unset: every hook inherits the CLI's environment, which hook-semantics §3.5
 * wants unchanged, so on Node 22 nothing is added.
 *
 * @example
 * quietSdkNodeNotice(); // before any command makes an SDK client
 */
export function quietSdkNodeNotice(env: NodeJS.ProcessEnv = process.env, node: string = process.versions.node): void {
  if (Number(node.split('.')[0]) < 22) env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
