/**
 * Test files of `npm test` that run in a fresh module graph of their own (vitest `isolate`):
 * they change what the process holds for the files after them (the working directory, the
 * environment across a whole file, module-level state of src/). Every other file shares its
 * worker's loaded modules with the files before it (`isolate: false`), which spares a
 * re-import of the AWS SDK, CDK and the hook engine per file. A file that fails only when
 * run after others belongs here: add its path.
 *
 * @example
 * projects: [{ extends: true, test: { name: 'isolated', include: [...ISOLATED_FILES] } }]
 */
export const ISOLATED_FILES: readonly string[] = [
  // chdir and HOOKGATE_HOME for the whole file (beforeAll to afterAll).
  'test/shell/examples.test.ts',
  // HOOKGATE_HOME for the whole file: the examples' gateway hooks read it at every call to find their
  // log folder. Run after other files on Node 20 in CI, two of its log waits timed out (cause not found).
  'test/agent/dev-turn.test.ts',
];
