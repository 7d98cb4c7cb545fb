import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';

/** An address whose TCP handshake never completes. */
export interface UnansweredConnect {
  /** `http://127.0.0.1:<port>`: a client connecting here waits until its own limit, or the kernel's (about two minutes). */
  url: string;
  close(): Promise<void>;
}

/** How long a probe waits before it counts as not connecting: a loopback connect takes well under a millisecond. */
const PENDING_AFTER_MS = 300;

/**
 * An endpoint that drops every connection attempt unanswered, as a security group that drops
 * packets or a dead route does: a listening socket (backlog 1) in a child process whose event
 * loop is blocked, so nothing is ever accepted, its accept queue filled here. Linux then drops
 * each further SYN, and the client's `connect` stays pending. Loopback only, no root, no
 * firewall rule.
 *
 * @example
 * const dead = await startUnansweredConnect();
 * await expect(clientWithConnectLimit(dead.url).send(command)).rejects.toThrow(); // instead of waiting minutes
 * await dead.close();
 */
export async function startUnansweredConnect(): Promise<UnansweredConnect> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      // The listener blocks its own event loop once it has said its port, so it never accepts; it
      // wakes twice a second only to end itself once the test process is gone (it never outlives it).
      `const s = require('node:net').createServer();
       const parent = Number(process.argv[1]);
       s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
         process.stdout.write(s.address().port + '\\n', () => {
           const cell = new Int32Array(new SharedArrayBuffer(4));
           while (process.ppid === parent) Atomics.wait(cell, 0, 0, 500);
           process.exit(0);
         });
       });`,
      String(process.pid),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the listener exited (${code}) before it said its port`)));
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  const fillers: Socket[] = [];
  const close = async () => {
    for (const socket of fillers) socket.destroy();
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  };
  // Fill the accept queue: connections complete until it is full, then one stays pending.
  for (;;) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    fillers.push(socket);
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), PENDING_AFTER_MS);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) break;
    if (fillers.length > 64) {
      await close();
      throw new Error('every connection was accepted: this kernel does not drop SYNs past a full accept queue');
    }
  }
  return { url: `http://127.0.0.1:${port}`, close };
}
