import { expect, it } from 'vitest';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { devBanner, loadedHooksLines, toolSandboxLines } from '../../src/local/dev-banner.ts';

it('the dev banner lists plugins, gateway hooks and each shell hook with its consent state', () => {
  const shell = {
    matcher: null,
    timeout: 60,
    enabled: true,
    approved: true,
    approved_at: '2026-01-01T00:00:00Z',
    drift: null,
    running: true,
    not_running: null,
  };
  const lines = loadedHooksLines({
    home: '/h',
    config_path: '/h/config.yaml',
    plugins: [
      { name: 'audit', dir: 'audit', enabled: true, failed: null },
      { name: 'idle', dir: 'idle', enabled: false, failed: null },
      { name: 'veto', dir: 'veto', enabled: true, failed: 'Error: no policy file' },
    ],
    gateway_hooks: [{ name: 'log', dir: 'log', events: ['agent:start', 'command:*'] }],
    skipped: ['[hooks] Skipping quiet: no events declared'],
    shell_hooks: [
      { ...shell, event: 'pre_tool_call', command: '/h/a.sh', matcher: 'terminal' },
      {
        ...shell,
        event: 'post_tool_call',
        command: '/h/b.sh',
        approved: false,
        approved_at: null,
        running: false,
        not_running: 'not-approved' as const,
      },
      {
        ...shell,
        event: 'pre_llm_call',
        command: '/h/c.sh',
        drift: 'content-changed',
        running: false,
        not_running: 'changed-since-approval' as const,
      },
      { ...shell, event: 'subagent_stop', command: '/h/d.sh', enabled: false, running: false, not_running: 'disabled' as const },
    ],
    notices: [],
    reload: { watching: false },
  });
  expect(lines).toEqual([
    '  plugins: audit  (not enabled in config.yaml: idle)',
    '    ✗ plugin veto not running: failed to load: Error: no policy file',
    '  gateway hooks: log (agent:start, command:*)',
    '    [hooks] Skipping quiet: no events declared',
    '  shell hooks (/h/config.yaml):',
    "    [pre_tool_call] /h/a.sh  matcher='terminal'  ✓ allowed",
    '    [post_tool_call] /h/b.sh  ✗ not allowlisted, does not run (to allow it: hookgate hooks approve post_tool_call /h/b.sh --home /h --yes, --accept-hooks, HOOKGATE_ACCEPT_HOOKS=1 (or HERMES_ACCEPT_HOOKS=1), hooks_auto_accept: true in config.yaml, or approving at the TTY prompt on the next run)',
    '    [pre_llm_call] /h/c.sh  ✗ script changed since approval: does not run (hookgate hooks doctor --home /h; then approve it again: hookgate hooks approve pre_llm_call /h/c.sh --home /h --yes)',
    '    [subagent_stop] /h/d.sh  disabled (enabled: false)',
  ]);
  expect(
    loadedHooksLines({
      home: '/h',
      config_path: '/h/config.yaml',
      plugins: [],
      gateway_hooks: [],
      skipped: [],
      shell_hooks: [],
      notices: [],
      reload: { watching: false },
    }),
  ).toEqual(['  plugins: none loaded', '  gateway hooks: none', '  shell hooks: none']);
});

it('the dev banner says where the chat tools run: bwrap, the none warning, or the fix', async () => {
  const { probeBubblewrap } = await import('../../src/agent/sandbox/probe-bubblewrap.ts');
  const none = toolSandboxLines({ config: { terminal: { sandbox: 'none' } } }, '/h');
  expect(none).toEqual([
    expect.stringMatching(/^ {2}tool sandbox: ⚠ terminal\.sandbox: none — the terminal and file tools run unsandboxed/),
  ]);
  const auto = toolSandboxLines({ config: {} }, '/h');
  if (probeBubblewrap('none').ok)
    expect(auto[0]).toMatch(/^ {2}tool sandbox: bwrap \(network: none; workspaces under .*, each at \/workspace inside\)$/);
  else expect(auto[0]).toMatch(/^ {2}tool sandbox: ✗ no tool sandbox can run here \(.*\)\. Fix: install bubblewrap/);
  expect(toolSandboxLines({ config: { terminal: { network: 'host' } } }, '/h')[0]).toMatch(/network: host|✗/);
});

it('the dev banner offers the local chat only when the local platform is on, and says which setting turned it off', () => {
  const banner = (env: Record<string, string>) =>
    devBanner({
      url: 'http://127.0.0.1:8787',
      home: '/h',
      config: loadDeploymentConfig({ ...env, HOOKGATE_API_TOKEN: 'a-token-of-16-chars' }, { runtime: 'local' }),
      loaded: [],
      console: false,
      hotReload: false,
    });
  expect(banner({})).toContain('  local chat: POST http://127.0.0.1:8787/webhooks/local');
  const off = banner({ HOOKGATE_LOCAL_ADAPTER: 'false' });
  expect(off).not.toContain('local chat:');
  expect(off).toContain('  platforms: none  (POST http://127.0.0.1:8787/webhooks/<platform>)');
  expect(off).toContain('  local is off: set HOOKGATE_LOCAL_ADAPTER=true (it is false)');
});

it('the dev banner carries the Discord answer-window warning right under the platforms, when there is one', () => {
  const banner = devBanner({
    url: 'http://127.0.0.1:8787',
    home: '/h',
    config: loadDeploymentConfig({ HOOKGATE_API_TOKEN: 'a-token-of-16-chars' }, { runtime: 'local' }),
    loaded: [],
    console: false,
    hotReload: false,
    discordWindow: 'discord: an interaction not answered within 3 s fails',
  });
  const lines = banner.split('\n');
  const platforms = lines.findIndex((l) => l.startsWith('  platforms: '));
  expect(lines.slice(platforms + 1)).toContain('  ⚠ discord: an interaction not answered within 3 s fails');
});

it('the dev banner takes a short HOOKGATE_API_TOKEN and warns of it', () => {
  const banner = (token: string) =>
    devBanner({
      url: 'http://127.0.0.1:8787',
      home: '/h',
      config: loadDeploymentConfig({ HOOKGATE_API_TOKEN: token }, { runtime: 'local' }),
      loaded: [],
      console: false,
      hotReload: false,
    });
  expect(banner('test-token')).toContain(
    '  ⚠ HOOKGATE_API_TOKEN is 10 characters: a token that short can be guessed, and it guards /v1',
  );
  expect(banner('a-token-of-16-chars')).not.toContain('HOOKGATE_API_TOKEN is');
});
