import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryLogger } from '../src/hooks/hook-logger.ts';
import { parseShellHooks } from '../src/hooks/shell/config/parse-config.ts';
import { shellHookCallback } from '../src/hooks/shell/shell-hook-callback.ts';
import { interleave, summarise, type Bench } from './harness.ts';

const ROUNDS = 20;
const PER_ROUND = 50;

/**
 * `http-hook`: one `pre_tool_call` http hook round trip through the live callback (payload,
 * signature, POST over a kept-alive connection, answer read and parsed), p50, against a bare
 * `fetch` POST of the same body to the same loopback server (Node's own keep-alive pool), in
 * alternating rounds. The server answers `{}` at once, so the figure is hookgate's overhead
 * around one round trip (docs/performance.md).
 */
const bench: Bench = async () => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    const logger = createMemoryLogger();
    const [entry] = parseShellHooks({ hooks: { pre_tool_call: [{ type: 'http', url, timeout: 10 }] } }, logger);
    const callback = shellHookCallback(entry!, logger, [], {
      http: () => ({ policy: { allowPrivate: false, allowLoopback: true }, secret: 'bench-secret-0123456789abcdef' }),
    });
    const kwargs = {
      tool_name: 'terminal',
      args: { command: 'ls -la' },
      session_id: 's',
      task_id: 't',
      tool_call_id: 'c',
      turn_id: 'u',
      api_request_id: 'u:api:1',
      middleware_trace: [],
    };
    const body = JSON.stringify({
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: kwargs.args,
      session_id: 's',
      cwd: process.cwd(),
      extra: {},
    });
    const bare = async () => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      JSON.parse(await response.text());
    };
    // Warm both connection pools first.
    for (let i = 0; i < 20; i++) {
      await bare();
      await callback(kwargs);
    }
    const { baseline, candidate } = await interleave(ROUNDS, PER_ROUND, bare, () => callback(kwargs));
    const hook = summarise(candidate);
    const plain = summarise(baseline);
    return [
      {
        id: 'http-hook',
        name: 'http hook round trip through the live callback (signed, kept alive), p50',
        baseline: 'a bare fetch POST of the same body to the same loopback server',
        unit: 'ms',
        value: hook.p50,
        baselineValue: plain.p50,
        better: 'lower',
        notes: `p99 ${hook.p99.toFixed(3)} vs ${plain.p99.toFixed(3)} ms, n=${hook.n}`,
        goal: '<= 1.0',
      },
    ];
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
};

export default bench;
