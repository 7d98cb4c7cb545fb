import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { quietSdkNodeNotice } from '../../src/cli/sdk-node-notice.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/hookgate.js');

describe('hookgate CLI and the AWS SDK', () => {
  // On Node 20 the SDK prints a NodeVersionSupportWarning the first time a client is made;
  // `trace --table` makes a DynamoDB client (the endpoint refuses at once: no network).
  it('prints no Node-version notice from the AWS SDK', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_MAX_ATTEMPTS: '1',
    };
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    const result = await run(process.execPath, [BIN, 'trace', '--table', 'hookgate-test', 'turn-1'], { env }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(result.stderr).toContain('hookgate trace: table hookgate-test'); // the client was made and used
    expect(result.stderr).not.toContain('NodeVersionSupportWarning');
  });

  // hook-semantics §3.5: a hook's environment is hookgate's, unchanged. The CLI adds the SDK's switch
  // only on the Node that prints the notice (20); on Node 22, which Lambda runs, a hook never sees it.
  it("adds the SDK's switch to the environment (which hooks inherit) only on Node 20", async () => {
    const home = mkdtempSync(join(tmpdir(), 'hookgate-sdk-env-'));
    writeFileSync(join(home, 'env.sh'), `#!/bin/sh\ncat >/dev/null\nenv > ${home}/env.txt\n`);
    chmodSync(join(home, 'env.sh'), 0o755);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  on_session_start:\n    - command: ${home}/env.sh\n`);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    await run(process.execPath, [BIN, 'hooks', 'test', 'on_session_start', '--home', home], { env });
    const seen = readFileSync(join(home, 'env.txt'), 'utf8').includes('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=');
    rmSync(home, { recursive: true, force: true });
    expect(seen).toBe(Number(process.versions.node.split('.')[0]) < 22);
  });

  it('quietSdkNodeNotice sets the switch on Node 20 only, and never over a value the caller set', () => {
    const on20: NodeJS.ProcessEnv = {};
    quietSdkNodeNotice(on20, '20.20.2');
    expect(on20.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe('true');
    const on22: NodeJS.ProcessEnv = {};
    quietSdkNodeNotice(on22, '22.23.5');
    expect(on22).toEqual({});
    const chosen: NodeJS.ProcessEnv = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false' };
    quietSdkNodeNotice(chosen, '20.20.2');
    expect(chosen.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe('false');
  });
});
