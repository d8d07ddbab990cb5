// A Vitest reporter for `npm test` (scripts/test.mjs): at the end of a run it writes, to the file named by
// UNFINISHED_REPORT, which test files never finished (a test of theirs still pending: the worker process running
// them died), how many tests failed, and the run's unhandled errors. With that, a run whose only fault is a dead
// worker can be told apart from a run with a failing test.

import { writeFileSync } from 'node:fs';

const errorText = (error) =>
  [error?.message, error?.cause?.message].filter((part) => typeof part === 'string' && part !== '').join(': ');

export default class UnfinishedReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const target = process.env.UNFINISHED_REPORT;
    if (!target) return;
    let failedTests = 0;
    const unfinished = [];
    for (const testModule of testModules) {
      let pending = testModule.state() === 'queued' || testModule.state() === 'pending';
      for (const test of testModule.children.allTests()) {
        const { state } = test.result();
        if (state === 'failed') failedTests += 1;
        if (state === 'pending') pending = true;
      }
      if (pending) unfinished.push({ project: testModule.project.name, file: testModule.moduleId });
    }
    writeFileSync(
      target,
      JSON.stringify({ failedTests, unfinished, unhandledErrors: unhandledErrors.map(errorText) }, null, 2),
    );
  }
}
