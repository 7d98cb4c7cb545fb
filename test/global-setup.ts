/**
 * Suite-wide setup. Each test file starts its own in-process emulators (test/support);
 * this only quiets the AWS SDK's Node 20 notice, which is harmless here.
 */
export default function setup(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
