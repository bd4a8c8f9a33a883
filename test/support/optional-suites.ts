/**
 * Suites that need what a machine may lack (a MongoDB server, Chromium). Whether it is there is known
 * before the test files load (test/support/setup.ts looks), so a suite without it is declared as one
 * pending line instead of its hooks and tests: nothing of it runs, and the run's summary says once
 * how to run them. Where the run requires it (CI sets REQUIRE_MONGODB=1 and REQUIRE_BROWSER=1), the
 * suite is one failing test instead.
 */

/** What the end of a run says about the suites it skipped, once per kind. */
const notices = new Map<string, readonly string[]>();

export interface Missing {
  /** What the suite needs and lacks, in a few words: "no MongoDB server". */
  readonly what: string;
  /** Why it is missing on this machine. */
  readonly why: string;
  /** The environment variable that makes it required (REQUIRE_MONGODB): set to 1, a missing one fails the run. */
  readonly requiredBy: string;
  /** Printed once at the end of a run that skipped such suites: what was skipped and how to run it. */
  readonly notice: readonly string[];
}

/** Declares, in place of the suite `title`, one pending test naming what is missing; or, where it is required, one failing test. */
export const skippedSuite = (title: string, missing: Missing): void => {
  if (process.env[missing.requiredBy] === '1') {
    describe(title, () => {
      it(`needs what is missing: ${missing.what}`, () => {
        throw new Error(`${missing.requiredBy}=1 but ${missing.what}: ${missing.why}`);
      });
    });
    return;
  }
  notices.set(missing.requiredBy, missing.notice);
  it(`${title}: skipped, ${missing.what}`);
};

/** The notices of the kinds of suites skipped in this run, each framed so that it stands out. */
export const skipNotices = (): string => {
  const bar = '!'.repeat(100);
  return [...notices.values()].map((lines) => ['', bar, ...lines.map((line) => `!!  ${line}`), bar, ''].join('\n')).join('\n');
};
