import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lambdaMissingPrograms } from '../../src/hooks/shell/config/lambda-compatibility.ts';

const dir = mkdtempSync(join(tmpdir(), 'hookgate-lambda-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const script = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
};

describe('lambdaMissingPrograms', () => {
  it.each([
    ['python3 /nowhere/hook.py', ['python3']],
    ['/usr/bin/env python3 /nowhere/hook.py', ['python3']],
    ['/usr/bin/env -S ruby /nowhere/hook.rb', ['ruby']],
    ['bash /nowhere/hook.sh', []],
    ['/bin/echo hi', []],
    ['node /nowhere/hook.mjs', []],
    ["python3 'unterminated", []],
  ])('%s → %j', (command, expected) => {
    expect(lambdaMissingPrograms(command)).toEqual(expected);
  });

  it('reads the shebang and the commands a shell script calls, ignoring comments', () => {
    expect(lambdaMissingPrograms(script('py.sh', '#!/usr/bin/env python3\nprint("{}")\n'))).toEqual(['python3']);
    expect(lambdaMissingPrograms(script('jq.sh', '#!/bin/sh\npayload=$(cat)\necho "$payload" | jq -r .tool_name\n'))).toEqual([
      'jq',
    ]);
    expect(lambdaMissingPrograms(script('sub.sh', '#!/bin/bash\nbranch=$(git rev-parse HEAD)\n'))).toEqual(['git']);
    expect(lambdaMissingPrograms(script('clean.sh', '#!/bin/sh\n# no jq needed here\ngrep -q rm && echo "{}"\n'))).toEqual([]);
  });
});
