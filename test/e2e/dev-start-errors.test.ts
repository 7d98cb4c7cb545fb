import { createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode } from '../support/run-node.ts';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));
let home: string;

function runDev(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runNode([BIN, 'dev', '--home', home, ...args], {
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
  });
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-dev-err-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('hookgate dev start-up errors', () => {
  it('a malformed variable stops start-up with a message naming it, no stack', async () => {
    const { code, stderr } = await runDev(['--port', '0'], { DISCORD_PUBLIC_KEY: 'not-a-key', DISCORD_APPLICATION_ID: '1' });
    expect(code).toBe(1);
    expect(stderr).toContain('hookgate dev: DISCORD_PUBLIC_KEY must be 64 hex digits');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a port in use is a clear error', async () => {
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const { code, stderr } = await runDev(['--port', String(port)]);
      expect(code).toBe(1);
      expect(stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      server.close();
    }
  });

  it('rejects a port that is not a number', async () => {
    const { code, stderr } = await runDev(['--port', 'eighty']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--port.*must be a port number/);
  });
});
