import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectDangerousCommand } from '../../src/agent/approvals/dangerous-commands.ts';

/**
 * The dangerous-command check judged by structure, not by instance (issue 24 item 6): for each
 * family it claims, generated spellings — option permutations and clusters, long-option
 * prefixes, program paths and quoting, normalised paths, wrappers nested in wrappers and in
 * shells — are flagged; generated everyday commands are not.
 */
const RUNS = { numRuns: 120 };

/** Single-quotes a string for the shell. */
const q = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const oneOf = <T>(...items: T[]) => fc.constantFrom(...items);

/** The same program, named in the ways a shell accepts. */
const program = (name: string) =>
  oneOf(
    name,
    `/bin/${name}`,
    `/usr/bin/${name}`,
    `./${name}`,
    `\\${name}`,
    q(name),
    `"${name}"`,
    `${name.slice(0, 1)}''${name.slice(1)}`,
  );
/** Every prefix of a long option getopt would take for it (`--rec`), given the shortest unambiguous one. */
const longPrefixes = (option: string, shortest: string) =>
  Array.from({ length: option.length - shortest.length + 1 }, (_, i) => option.slice(0, shortest.length + i));

/** Wrappers that run their arguments as a command. */
const WRAPPER = oneOf(
  'env',
  'env -i PATH=/bin',
  'env FOO=1',
  'env -u HOME',
  'nice',
  'nice -n 5',
  'nohup',
  'timeout 5',
  'timeout -s KILL 10',
  'setsid',
  'exec',
  'command',
  'time',
  'stdbuf -o0',
  'ionice -c 3',
  'flock /tmp/lock',
  'taskset 0x1',
  'taskset -c 0',
  'taskset -a 3',
  'chrt 10',
  'chrt -f 10',
  'chrt --rr 5',
  'unshare -r',
  'unshare --map-root-user',
  'unshare -m --propagation private',
  'setpriv --reuid=1000',
  'setpriv --reuid 1000 --clear-groups',
  'prlimit --nofile=10',
  'prlimit --as=100000 --cpu=10',
  'busybox',
  'toybox',
  'nsenter -t 1 -m',
  'systemd-run --user',
  'fakeroot',
  'sudo',
  'sudo -u root',
  'doas',
  'strace -f -o /dev/null',
  'caffeinate -i',
  'unbuffer',
);
/** Ways to run a command line inside another: shells, `eval`, `script -c`, `su -c`, `find -exec`, `parallel` (simple commands), or a compound one. */
const SIMPLE_AROUND = [
  (c: string) => c,
  (c: string) => `sh -c ${q(c)}`,
  (c: string) => `bash -lc ${q(c)}`,
  (c: string) => `zsh -c ${q(c)}`,
  (c: string) => `eval ${q(c)}`,
  (c: string) => `script -qc ${q(c)} /dev/null`,
  (c: string) => `script --command ${q(c)} out.log`,
  (c: string) => `su -c ${q(c)}`,
  (c: string) => `find . -maxdepth 0 -exec sh -c ${q(c)} \\;`,
  (c: string) => `parallel ::: ${q(c)}`,
  (c: string) => `echo $(${c})`,
  (c: string) => `watch -n 1 ${q(c)}`,
  (c: string) => `env -S ${q(c)}`,
];
const COMPOUND_AROUND = [
  (c: string) => `true && { ${c}; }`,
  (c: string) => `(${c})`,
  (c: string) => `if true; then ${c}; fi`,
  (c: string) => `ls | ${c}`,
];
/** Wraps a command in 0–3 wrappers, then maybe in a shell (and that in wrappers again), or in a compound command; a whole line only in a shell or a compound command. */
const wrapped = (core: fc.Arbitrary<string>, wholeLine = false) =>
  wholeLine
    ? fc
        .tuple(core, oneOf(...SIMPLE_AROUND.slice(1), ...COMPOUND_AROUND), fc.array(WRAPPER, { maxLength: 2 }))
        .map(([c, around, outer]) => {
          const line = around(c);
          return COMPOUND_AROUND.includes(around) ? line : [...outer, line].join(' ');
        })
    : fc.oneof(
        fc
          .tuple(core, fc.array(WRAPPER, { maxLength: 3 }), oneOf(...SIMPLE_AROUND), fc.array(WRAPPER, { maxLength: 2 }))
          .map(([c, inner, around, outer]) => [...outer, around([...inner, c].join(' '))].join(' ')),
        fc
          .tuple(core, fc.array(WRAPPER, { maxLength: 2 }), oneOf(...COMPOUND_AROUND))
          .map(([c, inner, around]) => around([...inner, c].join(' '))),
      );

async function keysOf(command: string): Promise<string[]> {
  return (await detectDangerousCommand(command))?.pattern_keys ?? [];
}
const flagged = async (command: string, ...anyOf: string[]) => {
  const keys = await keysOf(command);
  expect(
    keys.some((k) => anyOf.includes(k)),
    `${command} → [${keys.join(', ')}], wanted one of ${anyOf.join(', ')}`,
  ).toBe(true);
};

// Recursive delete.
const RM_RECURSIVE = oneOf('-r', '-R', ...longPrefixes('--recursive', '--r'));
const RM_OTHER = oneOf('-f', '--force', '-v', '--verbose', '--no-preserve-root', '--one-file-system', '-i', '--fo', '--verb');
const rmCluster = fc
  .tuple(oneOf('r', 'R'), fc.subarray(['f', 'v', 'd', 'I']))
  .chain(([r, rest]) => fc.shuffledSubarray([r, ...rest], { minLength: rest.length + 1 }))
  .map((letters) => `-${letters.join('')}`);
const BROAD = oneOf(
  '/',
  '/etc',
  '/usr/lib',
  '/var/',
  '/tmp/../etc',
  '//etc',
  '/./usr',
  '/home/../root',
  '/srv/www/..',
  '/*',
  '/tmp/*',
  '/etc/*',
  '~',
  '~/',
  '~/.*',
  '~/*',
  '~/.ssh',
  '~root',
  '*',
  '.*',
  '.',
  './',
  '..',
  '../x',
  'a/../..',
  './*',
  'build/../../x',
  '"$HOME"',
  '$HOME/',
  '"$TARGET"',
  '$(pwd)',
  '"${DIR:-/}"',
  '`pwd`/..',
);
const rmCore = fc
  .tuple(program('rm'), fc.oneof(RM_RECURSIVE, rmCluster), fc.array(RM_OTHER, { maxLength: 2 }), BROAD, fc.boolean())
  .chain(([rm, recursive, others, target, dashDash]) =>
    dashDash
      ? fc
          .shuffledSubarray([recursive, ...others], { minLength: others.length + 1 })
          .map((options) => `${rm} ${options.join(' ')} -- ${target}`)
      : fc
          .shuffledSubarray([recursive, ...others, target], { minLength: others.length + 2 })
          .map((words) => `${rm} ${words.join(' ')}`),
  );
const cdThenRelative = fc
  .tuple(
    oneOf('/', '/usr', '/tmp', '~', '"$D"', '-', '..', '../..', '/var/lib', 'build/../..'),
    oneOf('tmp', 'x', 'build/y', '*', 'lib'),
    oneOf('&&', ';', '||', '\n'),
    fc.oneof(RM_RECURSIVE, rmCluster),
  )
  .map(([dir, rel, sep, recursive]) => `cd ${dir} ${sep} rm ${recursive} ${rel}`);
const unknownArguments = oneOf(
  'rm $ARGS',
  'rm -f $X',
  'rm "$@"',
  'rm "$a" "$b"',
  'rm -v "${FILES[@]}"',
  'rm $(cat list)',
  'rm -d $TARGETS',
  'alias c="rm -fr ~"',
  "alias ls='rm -rf /'",
);
/** Whole command lines (functions, several statements): run inside a shell or a compound command, not behind a wrapper. */
const unknownArgumentLines = oneOf(
  'f() { rm -rf "$@"; }; f /',
  'clean() { rm -r "$1"; }; clean ~',
  "alias ls='rm -rf /'; ls",
  'set -- -rf /; rm "$@"',
  'X="-rf /"; rm $X',
);

// chmod / chown of system paths.
const SYSTEM_FILE = oneOf(
  '/etc/passwd',
  '/etc',
  '/usr/bin/sudo',
  '/bin/sh',
  '/tmp/../etc/shadow',
  '//etc/sudoers',
  '/./usr/lib/x.so',
  '~/.bashrc',
  '~',
  '"$F"',
  '/root/.ssh',
);
const octalGrant = fc
  .tuple(
    fc.integer({ min: 0, max: 7 }),
    fc.integer({ min: 0, max: 7 }),
    fc.integer({ min: 0, max: 7 }),
    fc.integer({ min: 0, max: 7 }),
    fc.boolean(),
  )
  .filter(([s, , g, o]) => (s & 6) !== 0 || (g & 2) !== 0 || (o & 2) !== 0)
  .map(([s, u, g, o, four]) => (four || s !== 0 ? `${s}${u}${g}${o}` : `${u}${g}${o}`));
const symbolicGrant = fc
  .tuple(
    fc.subarray(['u', 'g', 'o', 'a']),
    oneOf('+', '='),
    fc.subarray(['r', 'x', 'X']),
    fc.boolean(),
    oneOf('', 'u+x,', 'u-w,', 'a+r,'),
  )
  .filter(([who, , , setId]) => setId || who.length === 0 || who.some((w) => w !== 'u'))
  .map(([who, op, perms, setId, before]) => `${before}${who.join('')}${op}${[...perms, setId ? 's' : 'w'].join('')}`);
const chmodCore = fc.oneof(
  fc
    .tuple(program('chmod'), fc.oneof(octalGrant, symbolicGrant, oneOf('o=u', 'g=o', 'a+t', '+s')), SYSTEM_FILE)
    .map(([p, mode, file]) => `${p} ${mode} ${file}`),
  fc
    .tuple(program('chmod'), oneOf('--reference=x', '--ref=x', '--reference x', '--refer=/tmp/x'), SYSTEM_FILE)
    .map(([p, ref, file]) => `${p} ${ref} ${file}`),
  fc
    .tuple(
      program('chmod'),
      oneOf('-R', '--recursive', '--rec', '--recu', '-vR'),
      oneOf('777', '666', '1777', 'a+rwx', 'o+w', 'go+w', 'ugo=rwx', 'a=rw'),
      oneOf('.', 'src', '/var/www', '"$D"'),
    )
    .map(([p, r, mode, target]) => `${p} ${r} ${mode} ${target}`),
  fc.tuple(program('chmod'), oneOf('$MODE', '"$M"'), SYSTEM_FILE).map(([p, mode, file]) => `${p} ${mode} ${file}`),
);
const chownCore = fc.oneof(
  fc
    .tuple(
      oneOf('chown', 'chgrp', '/bin/chown'),
      oneOf('--reference=x', '--ref=x', '--reference /tmp/mine', '--refe=x'),
      SYSTEM_FILE,
    )
    .map(([p, ref, file]) => `${p} ${ref} ${file}`),
  fc
    .tuple(oneOf('chown', 'chgrp'), oneOf('nobody', 'me:me', '1000', 'wheel'), SYSTEM_FILE)
    .map(([p, who, file]) => `${p} ${who} ${file}`),
  fc
    .tuple(oneOf('chown', 'chgrp'), oneOf('-R', '--recursive', '--rec', '-hR'), oneOf('nobody', 'me:me'), BROAD)
    .map(([p, r, who, target]) => `${p} ${r} ${who} ${target}`),
);

// Writes to block and memory devices; filesystems.
const DEVICE = oneOf(
  '/dev/sda',
  '/dev/sda1',
  '/dev/nvme0n1',
  '/dev/nvme0n1p2',
  '/dev/mmcblk0',
  '/dev/vda',
  '/dev/xvdf',
  '/dev/mem',
  '/dev/kmem',
  '/dev/port',
  '/dev/mapper/root',
  '/dev/disk/by-id/ata-x',
  '/dev/dm-0',
  '/dev/md0',
  '/dev/loop0',
  '/dev/../dev/sda',
  '//dev/sdb',
  '/dev/./nvme1n1',
);
const deviceWrite = fc
  .tuple(DEVICE, fc.integer({ min: 0, max: 9 }))
  .map(
    ([dev, n]) =>
      [
        `cp image.iso ${dev}`,
        `cp -f image.iso ${dev}`,
        `cp -t ${dev} image.iso`,
        `install -m 600 img ${dev}`,
        `rsync img ${dev}`,
        `tee ${dev} < image.iso`,
        `cat image.iso | tee -a ${dev}`,
        `dd if=image.iso of=${dev} bs=4M`,
        `cat image.iso > ${dev}`,
        `head -c 1M /dev/zero >> ${dev}`,
      ][n]!,
  );
const makeFilesystem = fc
  .tuple(
    oneOf(
      'mkfs',
      'mkfs.ext4',
      'mkfs.vfat',
      'mkfs.xfs',
      'mkfs.btrfs',
      'mkdosfs',
      'mkntfs',
      'mke2fs',
      'mkexfatfs',
      'mkswap',
      'blkdiscard',
      'wipefs -a',
      'sgdisk --zap-all',
      'parted -s',
      'fdisk',
      'sfdisk',
    ),
    oneOf('-F', '-q', ''),
    DEVICE,
  )
  .map(([p, o, dev]) => `${p} ${o} ${dev}`);

// git push, every force spelling.
const PUSH_FORCE = oneOf(
  '-f',
  '--force',
  '--force-with-lease',
  '--force-with-lease=main',
  '--force-with-lease=main:abc123',
  '--force-if-includes',
  '--mirror',
  '--delete',
  '-d',
  '--prune',
  ...longPrefixes('--force', '--for'),
  ...longPrefixes('--mirror', '--m'),
  ...longPrefixes('--delete', '--de'),
  '--force-with',
  '--force-if',
  '-vf',
  '-fu',
  '-uf',
  '-qd',
  '-fv',
);
const PUSH_REFSPEC = oneOf(
  '+main',
  '+HEAD:main',
  '+refs/heads/*:refs/heads/*',
  ':old-branch',
  ':refs/tags/v1',
  '+feature:release',
);
const gitPush = fc
  .tuple(
    oneOf('git', '/usr/bin/git', "'git'"),
    oneOf('', '-C repo', '-c user.name=x', '--no-pager', '-c core.pager=cat -C ../x'),
    fc.oneof(
      PUSH_FORCE.map((f) => ({ option: f, refspec: 'main' })),
      PUSH_REFSPEC.map((r) => ({ option: '', refspec: r })),
    ),
    fc.subarray(['-u', '--tags', '-v', '--verbose', '--atomic']),
  )
  .chain(([git, global, { option, refspec }, extra]) =>
    fc
      .shuffledSubarray([...extra, ...(option ? [option] : [])], { minLength: extra.length + (option ? 1 : 0) })
      .map((options) => `${git} ${global} push ${options.join(' ')} origin ${refspec}`),
  );

// Fork bombs through functions of any name.
const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'select',
  'time',
  'coproc',
  'return',
  'exit',
  'true',
  'false',
]);
const NAME = fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/).filter((n) => !RESERVED.has(n));
const BODY = oneOf(
  (n: string) => `${n}|${n}&`,
  (n: string) => `${n} & ${n}`,
  (n: string) => `${n}; ${n} &`,
  (n: string) => `nohup ${n} & ${n}`,
  (n: string) => `(${n} &); ${n}`,
  (n: string) => `${n} | ${n}`,
  (n: string) => `timeout 9 ${n} & ${n} &`,
);
// A body ending in `&` takes no `;` before `}` (`:|:& }`): a newline ends it either way.
const DEFINE = oneOf(
  (n: string, b: string) => `${n}() { ${b}\n}`,
  (n: string, b: string) => `function ${n} { ${b}\n}`,
  (n: string, b: string) => `function ${n}() { ${b}\n}`,
  (n: string, b: string) => `${n}(){ ${b}\n}`,
);
const forkBomb = fc.oneof(
  fc.tuple(NAME, BODY, DEFINE).map(([n, body, define]) => `${define(n, body(n))}; ${n}`),
  fc
    .tuple(NAME, NAME, BODY, DEFINE)
    .filter(([a, b]) => a !== b)
    .map(([a, b, body, define]) => `${define(a, body(b))}; ${define(b, body(a))}; ${a}`),
);

// Killing every process (of the machine, a user, a group).
const SIGNAL = oneOf('', '-9', '-KILL', '-SIGKILL', '-s KILL', '-s 9', '-n 9', '-TERM', '--signal KILL');
const killAll = fc.oneof(
  fc
    .tuple(
      program('pkill'),
      SIGNAL.filter((s) => !s.startsWith('-s') && !s.startsWith('-n')),
      oneOf(
        '-u bob',
        '-U 1000',
        '--euid bob',
        '--uid 0',
        '-u root,bob',
        '-G staff',
        '-g 0',
        '-s 0',
        '-P 1',
        '-fu bob',
        '-eu bob',
      ),
      oneOf('', 'node', '.'),
    )
    .map(([p, s, who, pattern]) => `${p} ${s} ${who} ${pattern}`),
  fc
    .tuple(oneOf('killall', '/usr/bin/killall'), oneOf('', '-9', '-s KILL'), oneOf('-u bob', '--user bob', '-u root'))
    .map(([p, s, who]) => `${p} ${s} ${who}`),
  fc
    .tuple(program('kill'), SIGNAL, oneOf('', '--'), oneOf('-1', '0', '1', '-1234', '"$PID"', '$PPID', '$(pgrep node)'))
    .map(([p, s, dd, pid]) => `${p} ${s} ${dd} ${pid}`),
  fc
    .tuple(program('pkill'), oneOf('-f', '', '-9 -f'), oneOf('.', '.*', "'^'", '""', "'a*'", "'.?'", "'|x'"))
    .map(([p, o, pattern]) => `${p} ${o} ${pattern}`),
  oneOf('killall5', 'killall5 -9'),
);

// /proc/sysrq-trigger and friends.
const sysrq = fc
  .tuple(
    oneOf(
      '/proc/sysrq-trigger',
      '/proc/../proc/sysrq-trigger',
      '//proc/sysrq-trigger',
      '/proc/./sysrq-trigger',
      '/sys/power/state',
    ),
    oneOf('b', 'c', 'o', 'mem'),
    fc.integer({ min: 0, max: 4 }),
  )
  .map(
    ([file, what, n]) =>
      [
        `echo ${what} > ${file}`,
        `printf ${what} | tee ${file}`,
        `echo ${what} | dd of=${file}`,
        `echo ${what} >> ${file}`,
        `tee ${file} <<< ${what}`,
      ][n]!,
  );

describe('every family the check claims, by structure (fast-check)', () => {
  const families: [string, fc.Arbitrary<string>, string[], boolean?][] = [
    ['recursive delete, any option spelling, target or order', rmCore, ['recursive_delete']],
    [
      'arguments only known at run time in whole lines (functions, set --, variables)',
      unknownArgumentLines,
      ['recursive_delete', 'dynamic_command'],
      true,
    ],
    ['recursive delete after a cd out of the workspace', cdThenRelative, ['recursive_delete']],
    ['arguments only known at run time, functions and aliases', unknownArguments, ['recursive_delete', 'dynamic_command']],
    ['chmod granting write or set-id on a system path, or recursively world-writable', chmodCore, ['world_writable_chmod']],
    ['chown/chgrp of a system path, --reference included', chownCore, ['recursive_chown_root']],
    ['writes to block and memory devices', deviceWrite, ['raw_disk_write']],
    ['every mkfs and disk wiper', makeFilesystem, ['make_filesystem', 'raw_disk_write']],
    ['git push, every force spelling', gitPush, ['git_force_push']],
    ['fork bombs through functions of any name', forkBomb, ['fork_bomb'], true],
    ['killing every process of the machine, a user or a group', killAll, ['kill_all']],
    ['writes to /proc/sysrq-trigger', sysrq, ['system_shutdown']],
  ];

  it.each(families)('%s: flagged however it is spelt and wrapped', async (_name, family, keys, wholeLine) => {
    await fc.assert(
      fc.asyncProperty(wrapped(family, wholeLine), async (command) => flagged(command, ...keys)),
      RUNS,
    );
  });
});

describe('everyday commands stay harmless (fast-check)', () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/);
  const harmlessWrapper = oneOf(
    '',
    'env FOO=1',
    'nice',
    'nohup',
    'timeout 5',
    'taskset -c 0',
    'chrt 10',
    'prlimit --nofile=10',
    'stdbuf -o0',
    'time',
    'command',
    'setpriv --reuid=1000',
    'unshare -r',
  );
  const harmless = fc
    .tuple(name, name, fc.integer({ min: 2, max: 99_999 }), fc.integer({ min: 0, max: 22 }))
    .map(
      ([a, b, pid, n]) =>
        [
          `rm ${a}.txt`,
          `rm -f ${a}.txt ${b}.log`,
          `rm -rf ./build/${a}`,
          `rm -rf ${a}/`,
          `rm -r ${a}/${b}`,
          `cd ${a} && rm -rf dist`,
          `git push origin ${a}`,
          `git push -u origin ${a}`,
          `git push --follow-tags origin ${a}`,
          `chmod 644 ${a}.txt`,
          `chmod +x ${a}.sh`,
          `chmod u+x /usr/local/bin/${a}`,
          `chmod -R 755 ${a}`,
          `cp ${a} ${b}`,
          `cp ${a} /dev/null`,
          `tee ${a}.log`,
          `kill -9 ${pid}`,
          `pkill -f ${a}`,
          `ls -la ${a}`,
          `xargs -n1 echo ${b}`,
          `dd if=${a} of=${b} bs=1M`,
          `find . -name "${a}*" -exec grep -l ${b} {} +`,
          `parallel gzip ::: ${a}.log ${b}.log`,
        ][n]!,
    );
  it('generated everyday commands, bare or behind a harmless wrapper', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(harmless, harmlessWrapper), async ([command, wrapper]) => {
        const line = `${wrapper} ${command}`.trim();
        expect(await detectDangerousCommand(line), line).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('generated functions that call other things, not themselves', async () => {
    const line = fc
      // Named `fn_…`: a function called `sudo` or `sh` would be judged as that program, rightly.
      .tuple(
        name.map((n) => `fn_${n}`),
        name.map((n) => `fn_${n}`),
        fc.integer({ min: 0, max: 3 }),
      )
      .filter(([a, b]) => a !== b)
      .map(
        ([a, b, n]) =>
          [
            `${a}() { echo ${a}; }; ${a}`,
            `${a}() { ${b} & ${b}; }; ${a}`,
            `function ${a} { ls ${a}; }; ${a} | ${a}`,
            `${a}() { nohup ${b} ${a} & }; ${a}`,
          ][n]!,
      );
    await fc.assert(
      fc.asyncProperty(line, async (command) => {
        expect(await detectDangerousCommand(command), command).toBeUndefined();
      }),
      RUNS,
    );
  });
});
