import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShellFully, plainCommandLine } from '../../src/agent/approvals/shell-syntax.ts';

/**
 * The plain-line shortcut of the command judge (shell-syntax.ts) against the parser it skips:
 * every line it accepts must come out exactly as the parser reads it, and the lines it must leave
 * to the parser (a reserved word, a clause builtin or an assignment first, any character bash
 * gives a meaning to) are never accepted.
 */
const RUNS = { numRuns: 400 };

const plainWord = fc.stringMatching(/^[A-Za-z0-9_./:,+@%=-]{1,10}$/);
const keyword = fc.constantFrom(
  ...['if', 'then', 'fi', 'for', 'in', 'do', 'done', 'case', 'esac', 'while', 'until', 'select', 'function', 'time'],
  ...[
    'coproc',
    'declare',
    'local',
    'export',
    'readonly',
    'typeset',
    'nameref',
    'let',
    '@test',
    'else',
    'elif',
    '!',
    'true',
    'ls',
    'rm',
    'git',
  ],
);
const special = fc.constantFrom(...'$`"\'\\*?[]{}()<>|&;!#~\t\n'.split(''), '=', 'a=b');
const spaces = fc.integer({ min: 1, max: 3 }).map((n) => ' '.repeat(n));

/** A line of words, some of them keywords or holding a special character, spaced unevenly. */
const line = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.oneof({ weight: 6, arbitrary: plainWord }, { weight: 2, arbitrary: keyword }, { weight: 1, arbitrary: special }),
        spaces,
      ),
      {
        minLength: 1,
        maxLength: 6,
      },
    ),
    fc.boolean(),
  )
  .map(
    ([words, leading]) =>
      (leading ? ' ' : '') +
      words
        .map(([word, gap]) => word + gap)
        .join('')
        .trimEnd(),
  );

describe('plainCommandLine', () => {
  it('gives exactly the structure the parser gives, for every line it accepts', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(line, async (source) => {
        const shortcut = plainCommandLine(source);
        if (shortcut === undefined) return;
        accepted++;
        expect(shortcut).toEqual(await parseShellFully(source));
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(RUNS.numRuns / 4);
  });

  it('leaves to the parser what is not one plain simple command', () => {
    for (const source of [
      '',
      '   ',
      'A=1 ls',
      'ls *',
      'ls ~',
      'echo $HOME',
      'a;b',
      'a | b',
      'ls # x',
      'export A=b',
      'let x',
      'if',
      'time ls',
      'ls\tx',
      '!ls',
    ])
      expect([source, plainCommandLine(source)]).toEqual([source, undefined]);
    expect(plainCommandLine(' ls  -la --color=auto src/ ')).toEqual({
      commands: [
        {
          words: ['ls', '-la', '--color=auto', 'src/'].map((text) => ({ text, dynamic: false, glob: false })),
          writes: [],
        },
      ],
      functions: [],
    });
  });
});
