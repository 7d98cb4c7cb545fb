import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The folders a layout lists: `src/<name>/` in the README's table, `<name>/` under `src/` in docs/architecture.md §2. */
async function listed(file: string, pattern: RegExp): Promise<string[]> {
  const text = await readFile(join(ROOT, file), 'utf8');
  return [...text.matchAll(pattern)].map((match) => match[1]!).sort();
}

it("the README's layout table and docs/architecture.md §2 list exactly the folders of src/", async () => {
  const folders = (await readdir(join(ROOT, 'src'), { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  expect(await listed('README.md', /^\| `src\/([a-z-]+)\/` \|/gm)).toEqual(folders);
  const architecture = await readFile(join(ROOT, 'docs/architecture.md'), 'utf8');
  const tree = architecture.slice(
    architecture.indexOf('\nsrc/\n'),
    architecture.indexOf('\ndocs/ ', architecture.indexOf('\nsrc/\n')),
  );
  expect([...tree.matchAll(/^ {2}([a-z-]+)\/ /gm)].map((match) => match[1]!).sort()).toEqual(folders);
});
