import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveToolPath } from '../../src/agent/sandbox/file-boundary.ts';
import { SandboxError } from '../../src/agent/sandbox/tool-sandbox.ts';
import { createUnsandboxed } from '../../src/agent/sandbox/unsandboxed.ts';
import { patchTool } from '../../src/agent/tools/patch-file.ts';
import { readFileTool } from '../../src/agent/tools/read-file.ts';
import { terminalEnvironment } from '../../src/agent/sandbox/terminal-environment.ts';
import { ToolInputError, type ToolContext } from '../../src/agent/tools/tool.ts';
import { DEFAULT_TOOL_POLICY, toolPolicyFromConfig, type ToolPolicy } from '../../src/agent/tools/tool-policy.ts';
import { writeFileTool } from '../../src/agent/tools/write-file.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';

let base: string;
let workspace: string;
let outside: string;
let hooksHome: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hookgate-boundary-'));
  workspace = join(base, 'workspaces', 'session-1');
  outside = join(base, 'outside');
  hooksHome = join(base, 'hermes');
  await mkdir(workspace, { recursive: true });
  await mkdir(outside, { recursive: true });
  await mkdir(join(hooksHome, 'agent-hooks'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'outside the workspace\n');
  await writeFile(join(hooksHome, 'config.yaml'), 'hooks: {}\n');
  await writeFile(join(workspace, 'notes.txt'), 'inside\n');
  await symlink(join(outside, 'secret.txt'), join(workspace, 'escape.txt')); // a file symlink out
  await symlink(outside, join(workspace, 'escape-dir')); // a directory symlink out
  await symlink('/etc', join(workspace, 'etc-link'));
  await symlink(join(workspace, 'notes.txt'), join(workspace, 'inner-link.txt')); // stays inside
});
afterAll(() => rm(base, { recursive: true, force: true }));

function context(policy: ToolPolicy = DEFAULT_TOOL_POLICY): ToolContext {
  const sandbox = createUnsandboxed({ workspaceRoot: join(base, 'workspaces'), boundary: policy });
  return {
    sandbox,
    workspaceSession: { sessionId: 'session-1' },
    hooks: undefined as never,
    task_id: 't',
    session_id: 's',
    turn_id: 'turn',
  };
}

async function refused(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  // The tool's own argument checks are ToolInputErrors; what the sandbox refuses, SandboxErrors.
  expect(error instanceof ToolInputError || error instanceof SandboxError).toBe(true);
  return (error as Error).message;
}

describe('file tools stay inside the session workspace (hook-semantics §5.8)', () => {
  it.each([
    ['read', '/etc/shadow'],
    ['read', '/etc/passwd'],
    ['read', '../../../../etc/passwd'],
    ['read', '/proc/self/environ'],
    ['read', '/sys/kernel/hostname'],
    ['read', 'escape.txt'],
    ['read', 'escape-dir/secret.txt'],
    ['read', 'etc-link/passwd'],
    ['read', '../session-2/x'],
    ['write', '/tmp/../etc/x'],
    ['write', 'escape-dir/new.txt'],
    ['write', '../../outside/new.txt'],
    ['patch', 'escape.txt'],
  ])('%s %s is a tool error', async (tool, path) => {
    const args = { path, content: 'x', old_string: 'outside', new_string: 'pwned' };
    const run = { read: readFileTool, write: writeFileTool, patch: patchTool }[tool as 'read' | 'write' | 'patch'].run(
      args,
      context(),
    );
    expect(await refused(run)).toMatch(/outside the files this tool may use/);
  });

  it('nothing outside was written or changed', async () => {
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside the workspace\n');
    await expect(readFile(join(outside, 'new.txt'))).rejects.toThrow();
  });

  it('relative paths, absolute paths inside and symlinks that stay inside work', async () => {
    expect(JSON.parse(await readFileTool.run({ path: 'notes.txt' }, context())).content).toBe('inside\n');
    expect(JSON.parse(await readFileTool.run({ path: join(workspace, 'inner-link.txt') }, context())).content).toBe('inside\n');
    expect(JSON.parse(await writeFileTool.run({ path: 'sub/dir/new.txt', content: 'hi' }, context()))).toEqual({
      path: 'sub/dir/new.txt',
      bytes_written: 2,
    });
    expect(await readFile(join(workspace, 'sub', 'dir', 'new.txt'), 'utf8')).toBe('hi');
  });

  it('a FIFO in the workspace is refused instead of hanging the tool', async () => {
    execFileSync('mkfifo', [join(workspace, 'pipe')]);
    expect(await refused(readFileTool.run({ path: 'pipe' }, context()))).toMatch(/not a regular file/);
  });

  it('files.allowed_roots opens more roots, but never /etc, /proc, /sys or the hooks home inside them', async () => {
    const logger = createMemoryLogger();
    const policy = toolPolicyFromConfig({ files: { allowed_roots: [outside, '/'] } }, hooksHome, logger);
    expect(logger.lines).toEqual([]);
    expect(JSON.parse(await readFileTool.run({ path: 'escape.txt' }, context(policy))).content).toBe('outside the workspace\n');
    expect(JSON.parse(await readFileTool.run({ path: join(outside, 'secret.txt') }, context(policy))).content).toBe(
      'outside the workspace\n',
    );
    for (const path of [
      '/etc/passwd',
      '/proc/self/environ',
      '/sys/kernel/hostname',
      join(hooksHome, 'config.yaml'),
      'etc-link/hostname',
    ]) {
      expect(await refused(resolveToolPath(path, workspace, policy)), path).toMatch(/outside the files/);
    }
  });

  it('a protected directory is reachable when a root names it (or a path inside it)', async () => {
    const listed = toolPolicyFromConfig(
      { files: { allowed_roots: ['/etc/hostname', hooksHome] } },
      hooksHome,
      createMemoryLogger(),
    );
    expect(await resolveToolPath('/etc/hostname', workspace, listed)).toBe('/etc/hostname');
    expect(await resolveToolPath(join(hooksHome, 'config.yaml'), workspace, listed)).toBe(join(hooksHome, 'config.yaml'));
    expect(await refused(resolveToolPath('/etc/passwd', workspace, listed))).toMatch(/outside the files/);
  });

  it('a malformed files.allowed_roots warns and keeps the workspace only', () => {
    const logger = createMemoryLogger();
    expect(toolPolicyFromConfig({ files: { allowed_roots: '/srv' } }, hooksHome, logger).allowedRoots).toEqual([]);
    expect(toolPolicyFromConfig({ files: { allowed_roots: [''] } }, hooksHome, logger).allowedRoots).toEqual([]);
    expect(logger.lines.map((l) => l.message)).toEqual([
      expect.stringMatching(/^files\.allowed_roots: .*expected array.*the file tools keep to the workspace/),
      expect.stringMatching(/^files\.allowed_roots\[0\]: must be a non-empty path/),
    ]);
  });
});

describe('the terminal environment (hook-semantics §5.8)', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    LANG: 'C.UTF-8',
    LC_ALL: 'C',
    TZ: 'UTC',
    TERM: 'xterm',
    TMPDIR: '/tmp',
    GOPATH: '/go',
    AWS_SECRET_ACCESS_KEY: 'x',
    HOOKGATE_API_TOKEN: 'y',
    USER: 'me',
  };

  it('is the short allowlist and LC_*, plus terminal.env_passthrough', () => {
    expect(terminalEnvironment([], env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TZ: 'UTC',
      TERM: 'xterm',
      TMPDIR: '/tmp',
    });
    expect(terminalEnvironment(['GOPATH', 'UNSET_ONE'], env)).toMatchObject({ GOPATH: '/go' });
    expect(Object.keys(terminalEnvironment(['GOPATH'], env))).not.toContain('UNSET_ONE');
  });

  it('terminal.env_passthrough comes from config.yaml, validated', () => {
    const logger = createMemoryLogger();
    expect(toolPolicyFromConfig({ terminal: { env_passthrough: ['GOPATH'] } }, undefined, logger).terminalEnvPassthrough).toEqual(
      ['GOPATH'],
    );
    expect(toolPolicyFromConfig({ terminal: { env_passthrough: [1] } }, undefined, logger).terminalEnvPassthrough).toEqual([]);
    expect(logger.lines).toHaveLength(1);
  });
});
