/** What `checkSource` found: every check that ran, and what it could not check. */
export interface SourceCheckReport {
  source: string
  /** The operations that were called, in definition order. */
  operations: string[]
  /** Every check that passed, each as a sentence: `get_forecast: the envelope of spec 2.1`. */
  passed: string[]
  /** What the check could not exercise, and why (a list too short to page, an operation answered from memory). */
  notes: string[]
}

/**
 * Thrown by `checkSource` when a source does not behave the way the gateway relies on: its
 * message lists every failed check with what was expected and what came back.
 */
export class SourceCheckError extends Error {
  readonly failures: string[]
  readonly report: SourceCheckReport

  constructor(report: SourceCheckReport, failures: string[]) {
    super(
      `Source ${report.source} failed ${failures.length} of ${failures.length + report.passed.length} checks:\n` +
        failures.map((f) => `  - ${f}`).join('\n'),
    )
    this.name = 'SourceCheckError'
    this.failures = failures
    this.report = report
  }
}

/** Collects the outcome of each check, so one run reports every problem at once. */
export class CheckRecorder {
  readonly passed: string[] = []
  readonly failures: string[] = []
  readonly notes: string[] = []

  /** Records `what` as passed when `problem` is undefined, failed with the problem otherwise. */
  check(what: string, problem: string | undefined): boolean {
    if (problem === undefined) {
      this.passed.push(what)
      return true
    }
    this.failures.push(`${what}: ${problem}`)
    return false
  }

  /** Records every problem of a group under one name, or one pass. */
  checkAll(what: string, problems: string[]): boolean {
    return this.check(what, problems.length === 0 ? undefined : problems.join('; '))
  }

  note(text: string): void {
    this.notes.push(text)
  }

  report(source: string, operations: string[]): SourceCheckReport {
    return { source, operations, passed: this.passed, notes: this.notes }
  }
}
