// Prints one plain closing line that CI tooling reads in any language: "jest: N passed, N failed, N skipped",
// preceded by the slowest suites, so whoever trims the CI's time sees where it goes.
const SLOWEST = 15;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .map((r) => ({ path: r.testFilePath.replace(`${process.cwd()}/`, ''), seconds: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .sort((a, b) => b.seconds - a.seconds);
    const total = suites.reduce((sum, s) => sum + s.seconds, 0);
    if (suites.length > 1) {
      process.stdout.write(`\njest: slowest suites of ${suites.length} (${total.toFixed(0)} s in all):\n`);
      for (const s of suites.slice(0, SLOWEST)) process.stdout.write(`  ${s.seconds.toFixed(1).padStart(7)} s  ${s.path}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
