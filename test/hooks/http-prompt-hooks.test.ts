import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { addressKind, connectRefusal, refusalOf } from '../../src/hooks/http/address-policy.ts';
import { HTTP_HOOK_BODY_LIMIT_BYTES, postHookRequest, urlRefusal } from '../../src/hooks/http/post-hook-request.ts';
import { readPromptDecision } from '../../src/hooks/prompt/prompt-decision.ts';
import { standInJudge } from '../../src/hooks/prompt/stand-in-judge.ts';
import { parseShellHooks } from '../../src/hooks/shell/config/parse-config.ts';
import { planHooksHomeFiles } from '../../infra/lib/hooks-home-files.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { secretVariableNames } from '../../src/secrets/secret-variables.ts';
import { tempHome } from './support/temp-home.ts';

const STRICT = { allowPrivate: false, allowLoopback: false };
const DEV = { allowPrivate: false, allowLoopback: true };
const PRIVATE = { allowPrivate: true, allowLoopback: false };

let server: Server;
let base: string;
let connections = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/big') {
        response.writeHead(200);
        response.end(Buffer.alloc(HTTP_HOOK_BODY_LIMIT_BYTES + 10, 0x61));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('where an http hook may go', () => {
  it('classifies addresses by range, IPv4-mapped IPv6 as the IPv4 it maps', () => {
    expect(['127.0.0.1', '::1', '[::1]'].map(addressKind)).toEqual(['loopback', 'loopback', 'loopback']);
    expect(
      ['10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1', 'fd00::1', '0.0.0.0', '::ffff:10.0.0.1'].map(addressKind),
    ).toEqual(Array(7).fill('private'));
    expect(['169.254.169.254', 'fe80::1'].map(addressKind)).toEqual(['link-local', 'link-local']);
    expect(['93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'].map(addressKind)).toEqual(['public', 'public', 'public']);
    expect(refusalOf('127.0.0.1', DEV)).toBeUndefined();
    expect(refusalOf('10.0.0.1', DEV)).toBe('a private address (10.0.0.1)');
    expect(refusalOf('169.254.169.254', { allowPrivate: true, allowLoopback: false })).toBeUndefined();
  });

  it('https, or plain http to an allowed loopback or private address only; IP literals checked before connecting', () => {
    expect(urlRefusal(new URL('https://policy.example.com/h'), STRICT)).toBeUndefined();
    expect(urlRefusal(new URL('http://policy.example.com/h'), DEV)).toMatch(/plain http is only for a loopback address/);
    expect(urlRefusal(new URL('http://127.0.0.1:9/h'), DEV)).toBeUndefined();
    expect(urlRefusal(new URL('http://127.0.0.1:9/h'), STRICT)).toMatch(/is a loopback address/);
    // A public literal is not loopback: plain http to it is refused under dev too.
    expect(urlRefusal(new URL('http://8.8.8.8/h'), DEV)).toBe(
      'refused: 8.8.8.8 is a public address (8.8.8.8) over plain http; use https',
    );
    expect(urlRefusal(new URL('https://8.8.8.8/h'), DEV)).toBeUndefined();
    // hooks.http_allow_private: a policy service in the VPC may speak plain http; a name is checked when it resolves.
    expect(urlRefusal(new URL('http://10.0.0.5:8080/h'), PRIVATE)).toBeUndefined();
    expect(urlRefusal(new URL('http://[fd00::2]:8794/h'), PRIVATE)).toBeUndefined();
    expect(urlRefusal(new URL('http://policy.internal/h'), PRIVATE)).toBeUndefined();
    expect(urlRefusal(new URL('http://10.0.0.5:8080/h'), DEV)).toMatch(
      /^refused: 10\.0\.0\.5:8080 is a private address .*http_allow_private/,
    );
    expect(connectRefusal('93.184.216.34', PRIVATE, true)).toBe('a public address (93.184.216.34) over plain http; use https');
    expect(connectRefusal('93.184.216.34', PRIVATE, false)).toBeUndefined();
    expect(connectRefusal('10.1.2.3', PRIVATE, true)).toBeUndefined();
    expect(urlRefusal(new URL('https://[fe80::1]/h'), DEV)).toMatch(/is a link-local address/);
    expect(urlRefusal(new URL('ftp://example.com/h'), DEV)).toMatch(/ftp: URLs are not hook URLs/);
  });

  it('a host name that resolves to a refused address is refused at connect time (the resolved address is checked)', async () => {
    const port = (server.address() as AddressInfo).port;
    const before = connections;
    const answer = await postHookRequest(new URL(`https://localhost:${port}/h`), '{}', { timeoutMs: 5000, policy: STRICT });
    expect(answer).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/^refused: localhost resolves to a loopback address/),
    });
    expect(connections).toBe(before);
    // With private addresses allowed, plain http to a name that resolves to one is called.
    expect(
      await postHookRequest(new URL(`http://localhost:${port}/ok`), '{}', { timeoutMs: 5000, policy: PRIVATE }),
    ).toMatchObject({
      kind: 'answered',
      status: 200,
    });
  });

  it('keeps the connection alive across calls, and refuses an answer over the body cap', async () => {
    const before = connections;
    for (let i = 0; i < 3; i++)
      expect(await postHookRequest(new URL(`${base}/ok`), '{}', { timeoutMs: 5000, policy: DEV })).toMatchObject({
        kind: 'answered',
        status: 200,
        body: '{}',
      });
    expect(connections - before).toBe(1);
    expect(await postHookRequest(new URL(`${base}/big`), '{}', { timeoutMs: 5000, policy: DEV })).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('larger than'),
    });
  });
});

describe('config entries of type http and prompt', () => {
  it('parses them, keyed by URL and prompt; bad ones warn and are skipped', () => {
    const logger = createMemoryLogger();
    const entries = parseShellHooks(
      {
        hooks: {
          http_allow_private: true,
          pre_tool_call: [
            {
              type: 'http',
              url: 'https://p.example.com/h',
              headers: { Authorization: 'Bearer x', 'bad name': 'y' },
              fail_closed: true,
            },
            { type: 'prompt', prompt: '  Block "x".  ', model: 'small' },
            { type: 'http', url: 'file:///etc/passwd' },
            { type: 'prompt' },
            { type: 'agent', prompt: 'x' },
          ],
        },
      },
      logger,
    );
    expect(entries.map((e) => [e.type, e.command, e.failClosed])).toEqual([
      ['http', 'https://p.example.com/h', true],
      ['prompt', 'prompt: Block "x".', false],
    ]);
    expect(entries[0]!.headers).toEqual({ Authorization: 'Bearer x' });
    expect(entries[1]).toMatchObject({ prompt: 'Block "x".', model: 'small' });
    expect(logger.lines.map((l) => l.message)).toEqual([
      'hooks.pre_tool_call[0].headers.bad name must be a string under a valid header name; ignoring it',
      "hooks.pre_tool_call[2] (type: http) needs a 'url' with https:// (http:// for a loopback or private address); skipping it",
      "hooks.pre_tool_call[3] (type: prompt) is missing a non-empty 'prompt' field; skipping it",
      `hooks.pre_tool_call[4].type must be 'command', 'http' or 'prompt' (got "agent"); skipping it`,
    ]);
  });
});

describe('HOOKGATE_HTTP_HOOK_SECRET', () => {
  it('is validated with the deployment config, and is a secret', () => {
    expect(loadDeploymentConfig({ HOOKGATE_HTTP_HOOK_SECRET: 'x'.repeat(32) }, { runtime: 'local' }).httpHookSecret).toBe(
      'x'.repeat(32),
    );
    // The spec sets no length: a short key is taken (the http hooks' registration warns of it), an empty one is unset.
    expect(loadDeploymentConfig({ HOOKGATE_HTTP_HOOK_SECRET: 'short' }, { runtime: 'local' }).httpHookSecret).toBe('short');
    expect(loadDeploymentConfig({ HOOKGATE_HTTP_HOOK_SECRET: '' }, { runtime: 'local' }).httpHookSecret).toBeUndefined();
    expect(secretVariableNames()).toContain('HOOKGATE_HTTP_HOOK_SECRET');
  });

  it('an http hook called unsigned, or signed with a key under 16 characters, is named at registration', async () => {
    const temp = await tempHome({
      'config.yaml': 'hooks:\n  pre_tool_call:\n    - { type: http, url: "https://p.example.com/check" }\n',
    });
    const home = temp.path;
    try {
      const warnings = async (httpHookSecret?: string) => {
        const logger = createMemoryLogger();
        const engine = await createHookEngine({
          home,
          logger,
          print: () => {},
          acceptHooks: true,
          env: {},
          ...(httpHookSecret ? { httpHookSecret } : {}),
        });
        await engine.close();
        return logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
      };
      expect(await warnings()).toContainEqual(expect.stringContaining('is called unsigned: set HOOKGATE_HTTP_HOOK_SECRET'));
      expect(await warnings('short')).toContainEqual(
        expect.stringContaining('is signed with a HOOKGATE_HTTP_HOOK_SECRET of 5 characters'),
      );
      expect((await warnings('k'.repeat(32))).filter((w) => w.includes('HOOKGATE_HTTP_HOOK_SECRET'))).toEqual([]);
    } finally {
      await temp.remove();
    }
  });
});

describe('the deployed hooks home', () => {
  it('ships no script for an http or prompt entry (their command is a URL or a prompt), and is not refused for it', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hookgate-plan-'));
    try {
      await writeFile(join(home, 'config.yaml'), 'hooks: {}\n');
      const entries = parseShellHooks(
        {
          hooks: {
            pre_tool_call: [
              { type: 'http', url: 'https://p.example.com/hooks/check.sh' },
              { type: 'prompt', prompt: 'Block "x" in /etc/passwd' },
            ],
          },
        },
        createMemoryLogger(),
      );
      const plan = planHooksHomeFiles(home, entries, []);
      expect(plan.shellCommands).toEqual({});
      expect(plan.files.map((f) => f.target)).toEqual(['config.yaml']);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('prompt hooks', () => {
  const signal = new AbortController().signal;

  it('the stand-in judge blocks on a quoted phrase in the input, answers context elsewhere, and can be told what to answer', async () => {
    const prompt = 'Block any command that mentions "rm -rf" or "curl".';
    expect(
      JSON.parse(
        await standInJudge({ prompt, input: '{"tool_input": {"command": "RM -RF /"}}', event: 'pre_tool_call', signal }),
      ),
    ).toEqual({
      decision: 'block',
      reason: 'stand-in judge: the input contains "rm -rf"',
    });
    expect(
      JSON.parse(await standInJudge({ prompt, input: '{"tool_input": {"command": "ls"}}', event: 'pre_tool_call', signal })),
    ).toEqual({ decision: 'allow' });
    expect(
      JSON.parse(await standInJudge({ prompt, input: '{"user_message": "use curl"}', event: 'pre_llm_call', signal })),
    ).toEqual({ context: prompt });
    expect(await standInJudge({ prompt: 'x\nanswer: Sure, fine!', input: '{}', event: 'pre_tool_call', signal })).toBe(
      'Sure, fine!',
    );
  });

  it('only the structured decision is an answer; anything else is a failed run', () => {
    expect(readPromptDecision('pre_tool_call', '{"decision": "block", "reason": "no"}')).toEqual({
      ok: true,
      stdout: '{"decision":"block","reason":"no"}',
    });
    expect(readPromptDecision('pre_tool_call', '```json\n{"decision": "allow"}\n```')).toEqual({ ok: true, stdout: '{}' });
    expect(readPromptDecision('pre_llm_call', '{"context": "be brief"}')).toEqual({ ok: true, stdout: '{"context":"be brief"}' });
    expect(readPromptDecision('pre_tool_call', '{"context": "x"}').ok).toBe(false);
    expect(readPromptDecision('pre_tool_call', '{"decision": "maybe"}').ok).toBe(false);
    expect(readPromptDecision('pre_tool_call', 'Looks fine to me.').ok).toBe(false);
  });

  it('a fail_closed prompt hook whose model does not answer a decision blocks; without fail_closed it allows', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hookgate-prompt-'));
    try {
      await writeFile(
        join(home, 'config.yaml'),
        [
          'hooks:',
          '  pre_tool_call:',
          "    - { type: prompt, prompt: 'answer: I think it is fine', matcher: terminal, fail_closed: true }",
          "    - { type: prompt, prompt: 'answer: no idea', matcher: read_file }",
        ].join('\n'),
      );
      const engine = await createHookEngine({ home, logger: createMemoryLogger(), print: () => {} });
      expect(await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } })).toEqual({
        action: 'block',
        message: `hook prompt: answer: I think it is fine failed closed: the model's answer is not a structured decision: "I think it is fine"`,
      });
      expect(await engine.invoke('pre_tool_call', { tool_name: 'read_file', args: { path: 'a' } })).toEqual({ action: 'allow' });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
