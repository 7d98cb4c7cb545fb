import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_API_TOKEN: 'init-token-0123456789',
    HOOKGATE_DEV_STATE: 'memory',
    HOOKGATE_LOG_LEVEL: 'warn',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    NO_COLOR: '1',
  };
  delete e.HOOKGATE_HOME;
  delete e.HERMES_HOME;
  delete e.HOOKGATE_MODEL_BASE_URL;
  return e;
}

function hookgate(args: string[], input?: string) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    env: env(),
    encoding: 'utf8',
    timeout: 60_000,
    ...(input !== undefined ? { input } : {}),
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

let parent: string;
let home: string;
let dev: DevChild | undefined;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'hookgate-init-'));
  home = join(parent, 'home'); // init creates it
});

afterAll(async () => {
  await dev?.stop('SIGKILL');
  await rm(parent, { recursive: true, force: true });
});

describe('hookgate init [DIR]', () => {
  it('scaffolds a hooks home, and never overwrites what is there', async () => {
    const first = hookgate(['init', home]);
    expect(first.status).toBe(0);
    for (const file of [
      'config.yaml',
      'tsconfig.json',
      'plugins/hello/plugin.yaml',
      'plugins/hello/index.ts',
      'hooks/agent-log/HOOK.yaml',
      'hooks/agent-log/handler.ts',
      'agent-hooks/block-rm-rf.sh',
    ]) {
      expect(first.stdout).toContain(`created ${file}`);
      expect(existsSync(join(home, file))).toBe(true);
    }
    expect(statSync(join(home, 'agent-hooks/block-rm-rf.sh')).mode & 0o111).toBe(0o111);
    expect(readFileSync(join(home, 'plugins/hello/index.ts'), 'utf8')).toContain("import type { PluginContext } from 'hookgate'");

    await writeFile(join(home, 'config.yaml'), '# mine\n');
    const again = hookgate(['init', home]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('skipped config.yaml (exists; left as it is)');
    expect(again.stdout).not.toContain('created');
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe('# mine\n');
    await rm(join(home, 'config.yaml'));
    expect(hookgate(['init', home]).stdout).toContain('created config.yaml');
  }, 60_000);

  it("type-checks: tsc -p on the new home resolves `import type { PluginContext } from 'hookgate'`", () => {
    // An unresolved 'hookgate' is error TS2307, so exit 0 means the import resolved and the plugin and handler type-check.
    const tsc = spawnSync(process.execPath, [TSC, '-p', home], { encoding: 'utf8', timeout: 180_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 200_000);

  it('passes doctor apart from consent, and hooks approve makes the shell hook allowed', () => {
    const script = join(home, 'agent-hooks/block-rm-rf.sh');
    const doctor = hookgate(['hooks', 'doctor', '--home', home]);
    expect(doctor.stdout).toContain('✓ script exists and is executable');
    expect(doctor.stdout).toContain('✗ not allowlisted');
    expect(doctor.stdout).toContain('1 issue(s) found');
    expect(doctor.stderr).toBe('');

    const list = hookgate(['hooks', 'list', '--home', home]);
    expect(list.stdout).toContain(`${script}  matcher='terminal'  timeout=5s  fail_closed  ✗ not allowlisted`);
    expect(list.stdout).toContain('/hello <name>  plugin=hello');

    expect(hookgate(['hooks', 'approve', 'pre_tool_call', script, '--yes', '--home', home]).status).toBe(0);
    expect(hookgate(['hooks', 'list', '--home', home]).stdout).toContain(
      `${script}  matcher='terminal'  timeout=5s  fail_closed  ✓ allowed`,
    );
    const approved = hookgate(['hooks', 'doctor', '--home', home]);
    expect(approved.stdout).toContain('✓ allowlisted');
    expect(approved.stdout).not.toContain('issue(s) found');
  }, 60_000);

  it('runs in hookgate dev: the plugin, the approved shell hook and the gateway hook all fire', async () => {
    dev = await startDevChild(['--home', home], { cwd: process.cwd(), env: env(), timeoutMs: 40_000 });
    const { url } = dev;
    const out = dev.output();
    // The gateway's registry lines at start, plain on stdout (hook-semantics §2.1, §0.5); no sampling_rate: 0 on log lines.
    expect(out.split('\n')).toContain("[hooks] Loaded hook 'agent-log' for events: ['agent:start', 'agent:end']");
    expect(out).not.toContain('sampling_rate');
    // The banner lists what was loaded, with the shell hook's consent state.
    expect(out).toContain('  plugins: hello\n');
    expect(out).toContain('  gateway hooks: agent-log (agent:start, agent:end)\n');
    expect(out).toContain(`    [pre_tool_call] ${join(home, 'agent-hooks/block-rm-rf.sh')}  matcher='terminal'  ✓ allowed\n`);

    const chat = hookgate(['chat', '--url', url, '--chat', 'init-test'], '/hello Ada\nrun: rm -rf /\n');
    expect(chat.status, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('bot> Hello, Ada!');
    expect(chat.stdout).toContain('blocked: rm -rf / is not permitted');
    const summary = chat.stdout.split('\n').find((l) => l.includes('hook call'))!;
    expect(summary).toContain('pre_llm_call plugin helloContext → context');
    expect(summary).toMatch(/pre_tool_call shell shell_hook\[pre_tool_call:[^\]]*block-rm-rf\.sh\] → block/);

    // The gateway hook runs in the observer consumer, after the reply.
    const log = join(home, 'logs', 'agent-log.jsonl');
    await until(() => existsSync(log) && readFileSync(log, 'utf8').includes('agent:end'), 'agent:end in logs/agent-log.jsonl');
    expect(readFileSync(log, 'utf8')).toContain('"event":"agent:start"');
  }, 90_000);
});
