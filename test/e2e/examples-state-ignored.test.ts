import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWLIST_FILE_NAME } from '../../src/hooks/shell/consent/file-allowlist-store.ts';
import { devEndpointsPath } from '../../src/local/dev-endpoints.ts';

const REPO = resolve(import.meta.dirname, '../..');
const EXAMPLES = resolve(REPO, 'examples');

/** Whether git ignores a path of the repository (it need not exist). */
function ignored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', relative(REPO, path)], { cwd: REPO });
    return true;
  } catch {
    return false;
  }
}

/*
 * Trying the product never dirties the tree: everything `hookgate dev --home examples
 * [--accept-hooks]`, `hookgate hooks approve` and the example hooks write into examples/
 * is ignored by git, so `git status` stays clean and the git-status example hook has
 * nothing of ours to report.
 */
describe('state written into the examples home is ignored by git', () => {
  it.each([
    ['the shell-hook allowlist', resolve(EXAMPLES, ALLOWLIST_FILE_NAME)],
    ['its lock', resolve(EXAMPLES, `${ALLOWLIST_FILE_NAME}.lock`)],
    ['its atomic-replace temp file', resolve(EXAMPLES, `${ALLOWLIST_FILE_NAME}.3f9a1c.tmp`)],
    ["the running dev's endpoints file", devEndpointsPath(EXAMPLES)],
    ["the example hooks' logs", resolve(EXAMPLES, 'logs', 'activity.log')],
  ])('%s', (_what, path) => {
    expect(ignored(path)).toBe(true);
  });

  it('while the examples themselves are not', () => {
    for (const shipped of ['config.yaml', 'BOOT.md', 'hooks/boot-checklist/handler.ts', 'agent-hooks/block-rm-rf.sh']) {
      expect(ignored(resolve(EXAMPLES, shipped))).toBe(false);
    }
  });
});
