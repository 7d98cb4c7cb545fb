import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { chatLocally } from '../support/local-chat.ts';

/**
 * Issue 28 through the running pipeline (`hookgate dev` in-process: gateway, emulators, turn
 * consumer, stand-in model): http hooks on a loopback server (signed, timeouts with and
 * without fail_closed, a redirect and a private address refused), a prompt hook judged by the
 * stand-in, and rewrites that change what the terminal runs, with both argument sets in the
 * trace.
 */
const SECRET = 'test-http-hook-secret-0123456789';

interface Received {
  path: string;
  body: string;
  json: { tool_input?: { command?: string }; extra?: { turn_id?: string } };
  signatureValid: boolean;
  timestamp: string;
  dryRun: boolean;
}

let server: Server;
let base: string;
const received: Received[] = [];
const held: ServerResponse[] = [];
let root: string;
let dev: DevRuntime;

/** A receiver's check, written as docs/reference/http-hooks.md shows it. */
function verify(request: IncomingMessage, raw: string): boolean {
  const timestamp = String(request.headers['x-hookgate-timestamp'] ?? '');
  const signature = String(request.headers['x-hookgate-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${raw}`).digest('hex')}`;
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return fresh && signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

function answer(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const json = JSON.parse(body) as Received['json'];
    const path = request.url ?? '';
    received.push({
      path,
      body,
      json,
      signatureValid: verify(request, body),
      timestamp: String(request.headers['x-hookgate-timestamp']),
      dryRun: request.headers['x-hookgate-dry-run'] === 'true',
    });
    const command = json.tool_input?.command ?? '';
    if (path === '/policy') {
      if (command.includes('forbidden'))
        return answer(response, 200, { decision: 'block', reason: 'the policy service says no' });
      if (command === 'echo original') return answer(response, 200, { action: 'rewrite', args: { command: 'echo rewritten' } });
      // Arguments the terminal does not take (no `command`): checked against its schema and ignored.
      if (command === 'echo misfit') return answer(response, 200, { action: 'rewrite', args: { cmd: 'echo smuggled' } });
      return answer(response, 200, {});
    }
    if (path === '/claude') {
      // Claude Code's shape: tool_name Bash, updatedInput in Claude's field names.
      if (command === 'echo claude-original') {
        return answer(response, 200, {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            updatedInput: { command: 'echo claude-rewritten' },
          },
        });
      }
      return answer(response, 200, {});
    }
    if ((path === '/strict' && command.includes('hang-strict')) || (path === '/lenient' && command.includes('hang-lenient'))) {
      held.push(response); // never answered: the hook's timeout decides
      return;
    }
    if (path === '/moved' && command.includes('redirect-me')) return answer(response, 302, {}, { location: `${base}/policy` });
    return answer(response, 200, {});
  });
}

const chat = (chatId: string, text: string) => chatLocally(dev.url, chatId, text);

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  root = await mkdtemp(join(tmpdir(), 'hookgate-hook-types-'));
  const home = join(root, 'home');
  await mkdir(home, { recursive: true });
  await writeFile(
    join(home, 'config.yaml'),
    [
      'hooks_auto_accept: true',
      'hooks:',
      '  pre_tool_call:',
      `    - { type: http, url: "${base}/policy", matcher: terminal }`,
      `    - { type: http, url: "${base}/claude", matcher: terminal, payload: claude }`,
      `    - { type: http, url: "${base}/strict", matcher: terminal, timeout: 1, fail_closed: true }`,
      `    - { type: http, url: "${base}/lenient", matcher: terminal, timeout: 1 }`,
      `    - { type: http, url: "${base}/moved", matcher: terminal, fail_closed: true }`,
      '    - { type: http, url: "https://10.20.30.40/hook", matcher: write_file, fail_closed: true }',
      '    - { type: prompt, prompt: \'Block any command that mentions "launch-missiles".\', matcher: terminal }',
      '',
    ].join('\n'),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_HOME: home, HOOKGATE_HTTP_HOOK_SECRET: SECRET };
  delete env.HOOKGATE_MODEL_BASE_URL;
  dev = await startDevRuntime({
    home,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) => createHookEngine({ ...options, env, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
}, 60_000);

afterAll(async () => {
  for (const response of held) response.destroy();
  await dev?.stop();
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await rm(root, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ status: number; out: string }> {
  const { code, stdout } = await runCliInProcess(args);
  return { status: code, out: stdout };
}

describe('http hooks, prompt hooks and rewrites in the running pipeline', () => {
  it('an http hook on a loopback server blocks a tool call, and every request it got verifies', async () => {
    expect(await chat('h1', 'run: echo forbidden-thing')).toBe('Error: the policy service says no');
    const policy = received.filter((r) => r.path === '/policy');
    expect(policy.length).toBeGreaterThan(0);
    expect(policy.at(-1)!.json.tool_input).toEqual({ command: 'echo forbidden-thing' });
    expect(received.every((r) => r.signatureValid)).toBe(true);
    expect(received.every((r) => /^\d+$/.test(r.timestamp))).toBe(true);
  });

  it('a timeout blocks with fail_closed, and lets the call run without it', async () => {
    expect(await chat('h2', 'run: echo hang-strict')).toMatch(
      /^Error: hook http:\/\/127\.0\.0\.1:\d+\/strict failed closed: timed out after 1s$/,
    );
    expect(await chat('h3', 'run: echo hang-lenient')).toBe('hang-lenient');
  });

  it('a redirect is not followed (a failed run: fail_closed blocks), and a private address is refused without a request', async () => {
    const before = received.filter((r) => r.path === '/policy').length;
    expect(await chat('h4', 'run: echo redirect-me')).toMatch(
      /^Error: hook http:\/\/127\.0\.0\.1:\d+\/moved failed closed: HTTP 302 \(a redirect; hook requests do not follow redirects\)$/,
    );
    // /policy got the call once as a hook (before /moved), never as the redirect's target.
    expect(received.filter((r) => r.path === '/policy').length).toBe(before + 1);
    expect(await chat('h5', 'write: notes.txt\nhello')).toBe(
      'Error: hook https://10.20.30.40/hook failed closed: refused: 10.20.30.40 is a private address (10.20.30.40); set hooks.http_allow_private: true to allow it',
    );
  });

  it('a prompt hook blocks through the stand-in model', async () => {
    expect(await chat('h6', 'run: echo launch-missiles now')).toBe('Error: stand-in judge: the input contains "launch-missiles"');
    expect(await chat('h6', 'run: echo harmless')).toBe('harmless');
  });

  it('a rewrite changes what the terminal runs; later hooks see the new args; the trace shows both', async () => {
    expect(await chat('h7', 'run: echo original')).toBe('rewritten');
    const calls = received.filter(
      (r) => r.json.extra?.turn_id && r.path !== '/policy' && r.json.tool_input?.command?.includes('original'),
    );
    expect(calls).toEqual([]); // nobody after /policy saw the original command…
    const turnId = received.filter((r) => r.path === '/policy').at(-1)!.json.extra!.turn_id!;
    expect(
      received.filter((r) => r.path === '/strict' && r.json.extra?.turn_id === turnId).map((r) => r.json.tool_input),
    ).toEqual([{ command: 'echo rewritten' }]);

    // A Claude-shaped hook's updatedInput (in Claude Code's names) rewrites too.
    expect(await chat('h8', 'run: echo claude-original')).toBe('claude-rewritten');

    const { status, out: text } = await cli(['trace', turnId, '--home', join(root, 'home'), '--json']);
    expect(status).toBe(0);
    const records = JSON.parse(text.slice(text.indexOf('['))) as {
      hook: string;
      decision: string;
      kwargs?: string;
      result?: string;
      callback: string;
    }[];
    const rewrite = records.find((r) => r.hook === 'pre_tool_call' && r.decision.startsWith('rewrite:'))!;
    expect(JSON.parse(rewrite.kwargs!)).toEqual({ args: { command: 'echo original' } });
    expect(JSON.parse(rewrite.result!)).toEqual({ args: { command: 'echo rewritten' } });
    expect(
      records.find((r) => r.callback.startsWith('http_hook[pre_tool_call:') && r.callback.endsWith('/policy]'))!.decision,
    ).toBe('rewrite');
  });

  it('a rewrite into arguments the tool does not take is ignored: the call runs with its own', async () => {
    expect(await chat('h9', 'run: echo misfit')).toBe('misfit');
  });

  it('hooks list, test and doctor handle http and prompt hooks; doctor pings with a dry-run payload only', async () => {
    const home = join(root, 'home');
    const list = await cli(['hooks', 'list', '--home', home]);
    expect(list.out).toMatch(new RegExp(`${base}/policy  type=http  matcher='terminal'  timeout=60s  ✓ allowed`));
    expect(list.out).toContain(
      `prompt: Block any command that mentions "launch-missiles".  type=prompt  matcher='terminal'  timeout=60s  ✓ needs no approval`,
    );

    const test = await cli(['hooks', 'test', 'pre_tool_call', '--for-tool', 'terminal', '--home', home]);
    expect(test.status).toBe(0);
    expect(test.out).toContain(`→ ${base}/policy`);

    const before = received.length;
    const doctor = await cli(['hooks', 'doctor', '--home', home]);
    expect(doctor.out).toMatch(new RegExp(`\\[pre_tool_call\\] ${base}/policy\\n.*URL may be called`));
    expect(doctor.out).toContain('answered a dry-run payload with 2xx and JSON');
    expect(doctor.out).toContain('✗ URL refused: 10.20.30.40 is a private address');
    expect(doctor.out).toContain('the model answered a structured decision on a synthetic payload');
    const pings = received.slice(before);
    expect(pings.length).toBeGreaterThan(0);
    expect(pings.every((r) => r.dryRun)).toBe(true);
    // The Hermes payload carries it in extra too (Claude Code's has no place for it).
    expect(
      pings
        .filter((r) => r.path !== '/claude')
        .every((r) => (r.json as { extra?: { dry_run?: boolean } }).extra?.dry_run === true),
    ).toBe(true);
  });
});
