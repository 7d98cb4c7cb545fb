import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { userHome } from '../../src/hooks/shell/spawn/user-home.ts';
import { expandLeadingTilde, splitShellWords } from '../../src/hooks/shell/spawn/shell-words.ts';
import { UnparseableCommandError } from '../../src/hooks/shell/spawn/shell-errors.ts';

describe('splitShellWords (§3.5 step 2)', () => {
  it.each([
    ['/path/hook.sh', ['/path/hook.sh']],
    ['  a   b\tc  ', ['a', 'b', 'c']],
    [`python3 -c 'print(1)'`, ['python3', '-c', 'print(1)']],
    [`'a b'"c d"e`, ['a bc de']],
    [`x '' y`, ['x', '', 'y']],
    [`""`, ['']],
    [`a\\ b`, ['a b']],
    [`"a\\"b\\\\c\\d"`, ['a"b\\c\\d']],
    [`'a\\b'`, ['a\\b']],
    ['echo $HOME #not-a-comment x#y', ['echo', '$HOME', '#not-a-comment', 'x#y']],
    ['a|b > c && d; e', ['a|b', '>', 'c', '&&', 'd;', 'e']],
    ['~/hook.sh ~/x', ['~/hook.sh', '~/x']],
    ['', []],
    ['   ', []],
    // shlex's whitespace is space, tab, CR and LF: a vertical tab or form feed is part of a word.
    ['a\r\nb', ['a', 'b']],
    ['a\vb c\fd', ['a\vb', 'c\fd']],
  ])('%j → %j', (command, words) => {
    expect(splitShellWords(command)).toEqual(words);
  });

  it.each([`python3 'unterminated`, `say "hi`, 'trailing\\'])('%j is a parse error naming the command', (command) => {
    expect(() => splitShellWords(command)).toThrow(UnparseableCommandError);
    try {
      splitShellWords(command);
    } catch (error) {
      expect((error as Error).message).toContain('cannot parse command');
      expect((error as Error).message).toContain(JSON.stringify(command));
    }
  });
});

describe('expandLeadingTilde', () => {
  const env = { HOME: '/home/u' };
  it('expands only a leading ~', () => {
    expect(expandLeadingTilde('~/hook.sh', env)).toBe('/home/u/hook.sh');
    expect(expandLeadingTilde('~', env)).toBe('/home/u');
    expect(expandLeadingTilde('bash ~/hook.sh', env)).toBe('bash ~/hook.sh');
    expect(expandLeadingTilde('~no-such-user-xyz/hook.sh', env)).toBe('~no-such-user-xyz/hook.sh');
    expect(expandLeadingTilde('~/a', { HOME: '/' })).toBe('/a');
  });

  it("expands ~user to that user's home from the passwd file, any user, as expanduser does", () => {
    const passwd = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((line) => line.split(':'));
    const other = passwd.find((f) => f.length >= 7 && f[0] !== userInfo().username && f[5] !== '' && f[5] !== '/')!;
    expect(expandLeadingTilde(`~${other[0]}/../bin/echo hi`, env)).toBe(`${other[5]!.replace(/\/+$/, '')}/../bin/echo hi`);
    expect(userHome('no-such-user-xyz')).toBeUndefined();
    expect(userHome('root', '/nonexistent/passwd')).toBeUndefined();
  });
});
