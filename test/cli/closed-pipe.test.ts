import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

describe('a hookgate command writing to a closed pipe (`hookgate hooks list | head -1`)', () => {
  it('exits quietly: status 0, no stack trace', async () => {
    const child = spawn(process.execPath, [BIN, 'hooks', 'list', '--home', EXAMPLES], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the command writes anything: its first write meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toContain('Unhandled');
    expect(code).toBe(0);
  }, 30_000);
});
