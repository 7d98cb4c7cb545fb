import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Prints each fault case's one-line figure (`faultLine`) as the case ends, and all of them
 * again, in case order, when the run ends: the list docs/reliability.md copies.
 */
export default class FaultReporter implements Reporter {
  onTestCaseResult(testCase: TestCase): void {
    const line = (testCase.meta() as { fault?: string }).fault;
    const state = testCase.result().state;
    process.stdout.write(
      `${line ?? `fault ? ${testCase.name}: no figure`}${state === 'passed' ? '' : ` (${state.toUpperCase()})`}\n`,
    );
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const module of [...modules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      for (const testCase of module.children.allTests()) {
        const line = (testCase.meta() as { fault?: string }).fault ?? `fault ? ${testCase.name}: no figure`;
        const state = testCase.result().state;
        lines.push(`${line}${state === 'passed' ? '' : ` (${state.toUpperCase()})`}`);
      }
    }
    process.stdout.write(
      `\nfault figures${process.env.HOOKGATE_FAULTS_QUICK === '1' ? ' (--quick)' : ''}:\n${lines.map((l) => `  ${l}`).join('\n')}\n`,
    );
  }
}
