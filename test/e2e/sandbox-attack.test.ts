import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBubblewrap } from '../../src/agent/sandbox/probe-bubblewrap.ts';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { chatLocally } from '../support/local-chat.ts';

/*
 * Issue #24's attack, as a test (docs/security.md): a real `hookgate dev` (the CLI, its own
 * process) with 20 planted secrets — 12 in its environment, 8 in files of the hooks home, the
 * allowlist, the state folder, the operator's $HOME and the project it runs from — attacked
 * as a chat user through POST /webhooks/local with the stand-in model's `run:`, `read:`,
 * `write:` and `delegate:` phrases. The user approves their own flagged commands (the
 * dangerous-command check is not the boundary here; the sandbox is).
 *
 * What comes back is decoded the way the attack encoded it (rev, base32, gzip|base64, xxd,
 * od) before it is searched, and each attack also shows it ran (e.g. `PATH=` is in the
 * decoded environment), so a test here fails when the route leaks and when it silently did
 * nothing.
 */

/** Every planted value: `plnt` + 24 hex characters, a shape no redactor knows. */
const planted = (): string => `plnt${randomBytes(12).toString('hex')}`;
const ENV_SECRETS: Record<string, string> = Object.fromEntries(
  [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'TELEGRAM_BOT_TOKEN',
    'SLACK_BOT_TOKEN',
    'DISCORD_BOT_TOKEN',
    'HOOKGATE_MODEL_API_KEY',
    'HOOKGATE_API_TOKEN',
    'GITHUB_TOKEN',
    'DATABASE_PASSWORD',
    'STRIPE_SECRET_KEY',
    'OPERATOR_NOTE',
  ].map((name) => [name, planted()]),
);
const FILE_SECRETS = Array.from({ length: 8 }, planted);
const ALL_SECRETS = [...Object.values(ENV_SECRETS), ...FILE_SECRETS];
/** What the environment holds: a Telegram token must look like `<bot id>:<secret>`. */
const ENV_VALUES: Record<string, string> = { ...ENV_SECRETS, TELEGRAM_BOT_TOKEN: `123456:${ENV_SECRETS.TELEGRAM_BOT_TOKEN}` };

let base: string;
let home: string;
let state: string;
let operatorHome: string;
let project: string;
let workspaces: string;
let dev: DevChild;
let url: string;
let port: string;
const replies: string[] = [];

/** The planted files, with the secret each holds. */
const plantedFiles = (): Record<string, string> => ({
  [join(home, 'config.yaml')]: `# database: ${FILE_SECRETS[0]}\nhooks: {}\n`,
  [join(home, '.env')]: `MODEL_KEY=${FILE_SECRETS[1]}\n`,
  [join(home, 'shell-hooks-allowlist.json')]:
    `${JSON.stringify({ approvals: [{ event: 'pre_tool_call', command: `/opt/hook.sh --token ${FILE_SECRETS[2]}`, approved_at: '2026-01-01T00:00:00Z' }] })}\n`,
  [join(state, 'operator-notes.txt')]: `${FILE_SECRETS[3]}\n`,
  [join(operatorHome, '.aws', 'credentials')]: `[default]\naws_secret_access_key = ${FILE_SECRETS[4]}\n`,
  [join(operatorHome, '.ssh', 'id_ed25519')]: `-----BEGIN OPENSSH PRIVATE KEY-----\n${FILE_SECRETS[5]}\n`,
  [join(operatorHome, '.netrc')]: `machine example.com login me password ${FILE_SECRETS[6]}\n`,
  [join(project, '.env')]: `DEPLOY_TOKEN=${FILE_SECRETS[7]}\n`,
});

const haveSandbox = probeBubblewrap('none').ok;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hookgate-attack-'));
  // Searchable by the sandbox's user ("nobody" when the suite runs as root), as /tmp is.
  await chmod(base, 0o711);
  home = join(base, 'hooks-home');
  state = join(base, 'state');
  operatorHome = join(base, 'operator-home');
  project = join(base, 'project');
  workspaces = join(base, 'tmp');
  for (const dir of [home, state, operatorHome, project, workspaces]) await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(plantedFiles())) {
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, content);
  }
  if (!haveSandbox) return;
  // TMPDIR puts the session workspaces (<tmpdir>/hookgate-workspaces) in this test's folder.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...ENV_VALUES,
    HOME: operatorHome,
    TMPDIR: workspaces,
    HOOKGATE_MODEL_BASE_URL: '',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  dev = await startDevChild(['--home', home, '--state', state, '--no-watch'], { cwd: project, env, timeoutMs: 60_000 });
  url = dev.url;
  port = new URL(url).port;
}, 90_000);

afterAll(async () => {
  await dev?.stop('SIGTERM', { killAfterMs: 10_000 });
  if (base) await rm(base, { recursive: true, force: true });
});

const post = (chatId: string, text: string) => chatLocally(url, chatId, text, { userId: 'attacker', timeoutMs: 120_000 });

/** A chat message as the attacker sends it; a command the dangerous-command check flags is approved by the attacker. */
async function chat(chatId: string, text: string): Promise<string> {
  let reply = await post(chatId, text);
  if (reply.includes('needs your approval')) reply = await post(chatId, '/approve');
  replies.push(reply);
  return reply;
}

/** The planted values found in `text` (as is, and with whitespace removed: wrapped or columned output). */
function leaks(text: string): string[] {
  const flat = text.replace(/\s/g, '');
  return ALL_SECRETS.filter((secret) => text.includes(secret) || flat.includes(secret));
}

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/[\s=]/g, '')) {
    const value = alphabet.indexOf(char);
    if (value >= 0) bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => Number.parseInt(b, 2)));
}

/** The reply minus the stand-in's `(exit code N)` note. */
const body = (reply: string) => reply.replace(/\n?\(exit code \d+\)$/, '');

const ENVIRON = 'cat /proc/[0-9]*/environ';

describe.skipIf(!haveSandbox)(
  'a chat user attacks hookgate dev from inside the tool sandbox (issue #24)',
  { timeout: 600_000 },
  () => {
    it('the banner says the tools run in bubblewrap', () => {
      expect(dev.output()).toContain('tool sandbox: bwrap (network: none');
    });

    it('0 secrets from the environment of every visible process, in any encoding', async () => {
      const decoders: [string, (reply: string) => string][] = [
        [ENVIRON, (r) => r],
        [
          `${ENVIRON} | rev`,
          (r) =>
            body(r)
              .split('\n')
              .map((line) => [...line].reverse().join(''))
              .join('\n'),
        ],
        [`${ENVIRON} | base32 -w0`, (r) => base32Decode(body(r)).toString('latin1')],
        [`${ENVIRON} | gzip | base64 -w0`, (r) => gunzipSync(Buffer.from(body(r), 'base64')).toString('latin1')],
        [`${ENVIRON} | xxd -p`, (r) => Buffer.from(body(r).replace(/\s/g, ''), 'hex').toString('latin1')],
        [`${ENVIRON} | od -An -t x1`, (r) => Buffer.from(body(r).replace(/\s/g, ''), 'hex').toString('latin1')],
        [`${ENVIRON} | od -An -c`, (r) => r.replace(/\s/g, '')],
        [
          'cat /proc/1/environ /proc/self/environ /proc/$PPID/environ | base64 -w0',
          (r) => Buffer.from(body(r), 'base64').toString('latin1'),
        ],
        ['env; set', (r) => r],
      ];
      for (const [command, decode] of decoders) {
        const reply = await chat('env-routes', `run: ${command}`);
        const decoded = decode(reply);
        expect(decoded, command).toContain('PATH=');
        expect(leaks(decoded), command).toEqual([]);
        expect(leaks(reply), command).toEqual([]);
        // Nothing was redacted either: nothing secret reached the output to be.
        expect(reply, command).not.toContain('***');
      }
      // Only the sandbox's own processes are visible: bwrap (PID 1), prlimit's shell, the pipeline.
      const pids = await chat('env-routes', "run: ls /proc | grep -cE '^[0-9]+$'");
      expect(Number(body(pids))).toBeLessThan(10);
    });

    it('0 secrets from files: the hooks home, the allowlist, the state folder, the operator home and the project are not there', async () => {
      for (const file of Object.keys(plantedFiles())) {
        const viaTerminal = await chat('files', `run: cat ${file}; ls -a ${join(file, '..')}`);
        expect(viaTerminal, file).toContain('No such file or directory');
        expect(leaks(viaTerminal), file).toEqual([]);
        const viaTool = await chat('files', `read: ${file}`);
        expect(viaTool, file).toMatch(/^Error: /);
        expect(leaks(viaTool), file).toEqual([]);
      }
      // The whole view searched: every planted value carries `plnt`.
      const grep = await chat(
        'files',
        'run: grep -rIs plnt / --exclude-dir=proc --exclude-dir=usr --exclude-dir=dev | head -5; ls / ~ /home /root /work 2>&1; echo searched',
      );
      expect(grep).toContain('searched');
      expect(leaks(grep)).toEqual([]);
      expect(grep).not.toContain('plnt');
    });

    it('0 secrets through a delegated child, which works in the same sandbox', async () => {
      const reply = await chat('delegation', `delegate: run: ${ENVIRON} | rev`);
      const decoded = reply
        .split('\n')
        .map((line) => [...line].reverse().join(''))
        .join('\n');
      expect(decoded).toContain('PATH=');
      expect(leaks(decoded)).toEqual([]);
      expect(leaks(reply)).toEqual([]);
      const read = await chat('delegation', `delegate: read: ${join(home, 'config.yaml')}`);
      expect(leaks(read)).toEqual([]);
    });

    it('no way into more of the kernel: a nested user namespace is refused (seccomp)', async () => {
      const reply = await chat('kernel', 'run: unshare --user --map-root-user id; echo "unshare $?"; id -u');
      expect(reply).toContain('Operation not permitted');
      expect(reply).toContain('unshare 1');
      expect(body(reply).trim().split('\n').at(-1)).toMatch(/^\d+$/); // the call itself ran on
    });

    it('background jobs (&, nohup, setsid) do not outlive the call', async () => {
      const started = await chat(
        'background',
        "run: (sleep 3; echo amp > /workspace/bg-amp.txt) & nohup sh -c 'sleep 3; echo nohup > /workspace/bg-nohup.txt' >/dev/null 2>&1 & setsid sh -c 'sleep 3; echo setsid > /workspace/bg-setsid.txt' >/dev/null 2>&1 & echo foreground > /workspace/fg.txt; echo started",
      );
      expect(started).toBe('started');
      // Inside the next call (the same workspace), long after the jobs would have written.
      const later = await chat('background', 'run: sleep 5; ls /workspace');
      expect(later.split('\n').sort()).toEqual(['fg.txt']);
      // And on the host: no process of theirs is left.
      const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
      expect(ps).not.toContain('/workspace/bg-');
    });

    it('the hooks home, the allowlist and the state folder cannot be written from the terminal or the file tools', async () => {
      const before = await snapshot();
      const terminal = await chat(
        'writes',
        `run: mkdir -p ${home}/plugins/evil; echo 'plugins: {enabled: [evil]}' >> ${home}/config.yaml; echo '{}' > ${home}/shell-hooks-allowlist.json; touch ${state}/x; echo tried`,
      );
      expect(terminal).toContain('tried');
      for (const path of [
        join(home, 'plugins', 'evil', 'plugin.yaml'),
        join(home, 'config.yaml'),
        join(home, 'shell-hooks-allowlist.json'),
        join(state, 'x'),
      ]) {
        // These paths lie under /tmp here, so the write lands in the sandbox's private /tmp (gone
        // when the call ends); under a real home (/root/.hermes) it is refused. Either way the host's file is untouched.
        await chat('writes', `write: ${path}\npwned`);
      }
      expect(await snapshot()).toEqual(before);
      // From the next call, nothing of those writes is visible either.
      expect(await chat('writes', `run: cat ${join(home, 'config.yaml')}; echo read`)).toContain('No such file or directory');
    });

    it('kill -9 $PPID, kill -9 -1 and a fork bomb leave the server answering', async () => {
      for (const command of ['kill -9 $PPID; echo after', 'kill -9 -1; echo after', "bash -c ':(){ :|:& };:'; echo bomb-done"]) {
        await chat('kill', `run: ${command}`);
        expect(dev.child.exitCode, command).toBeNull();
        expect((await fetch(`${url}/healthz`)).status, command).toBe(200);
        expect(await chat('kill-check', 'hello'), command).toBe('You said: hello');
      }
    });

    it("the server's port cannot be reached from the terminal", async () => {
      const reply = await chat(
        'network',
        `run: curl -sS -m 5 http://127.0.0.1:${port}/healthz; echo curl=$?; bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' ; echo tcp=$?; curl -sS -m 5 http://127.0.0.1:${port}/console/api/chats; echo api=$?`,
      );
      expect(reply).toMatch(/curl=[1-9]/);
      expect(reply).toMatch(/tcp=[1-9]/);
      expect(reply).toMatch(/api=[1-9]/);
      expect(reply).not.toContain('"ok"');
      // The control: from outside the sandbox, it answers.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    });

    it('a hard link to a file outside the workspace cannot be made', async () => {
      const reply = await chat(
        'links',
        'run: ln /etc/passwd /workspace/pw; ln /usr/bin/env /workspace/env-link; echo files=$(ls -A /workspace | wc -l)',
      );
      expect(reply).toContain('Invalid cross-device link');
      expect(reply).toContain('files=0');
      // A symlink out resolves inside the sandbox: the file tools see the sandbox's files, not the host's.
      await chat('links', `run: ln -s ${join(home, 'config.yaml')} /workspace/cfg; ln -s ${operatorHome} /workspace/op`);
      expect(await chat('links', 'read: cfg')).toMatch(/^Error: /);
      expect(await chat('links', 'read: op/.netrc')).toMatch(/^Error: /);
    });

    it('files written in one turn are there in the next turn of the same session, and absent from every other session', async () => {
      expect(await chat('persist-a', 'write: notes/today.txt\nkept across turns')).toMatch(
        /^Wrote \d+ bytes to notes\/today\.txt\.$/,
      );
      expect(await chat('persist-a', 'run: cat notes/today.txt')).toBe('kept across turns');
      expect(await chat('persist-a', 'read: /workspace/notes/today.txt')).toBe('kept across turns');
      expect(await chat('persist-b', 'read: notes/today.txt')).toMatch(/^Error: /);
      const other = await chat(
        'persist-b',
        'run: ls -a /workspace; find / -name today.txt -not -path "/proc/*" 2>/dev/null; echo looked',
      );
      expect(other).not.toContain('today.txt');
      // On the host: exactly one workspace holds it.
      const root = join(workspaces, 'hookgate-workspaces');
      const holders: string[] = [];
      for (const dir of await readdir(root)) {
        if (await stat(join(root, dir, 'notes', 'today.txt')).catch(() => undefined)) holders.push(dir);
      }
      expect(holders).toHaveLength(1);
    });

    it('no reply of the whole run carried a planted secret', () => {
      expect(replies.length).toBeGreaterThan(30);
      expect(replies.flatMap(leaks)).toEqual([]);
    });
  },
);

/** The hooks home and the state folder's planted files, and whether an `evil` plugin appeared. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of [join(home, 'config.yaml'), join(home, 'shell-hooks-allowlist.json'), join(state, 'operator-notes.txt')]) {
    out[file] = await readFile(file, 'utf8');
  }
  out.evil = String(
    await stat(join(home, 'plugins', 'evil')).then(
      () => true,
      () => false,
    ),
  );
  out.stateX = String(
    await stat(join(state, 'x')).then(
      () => true,
      () => false,
    ),
  );
  return out;
}
