import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the build puts the browser tracking script: tsconfig.browser.json compiles browser/ into
 * dist/browser/, beside dist/src/ where this file runs from.
 */
export const TRACKER_SCRIPT_PATH = join(__dirname, '..', '..', 'browser', 'tracker.js');

/** The built tracking script, read once at start; a missing build stops the start with a clear line. */
export const readTrackerScript = (path: string = TRACKER_SCRIPT_PATH): Buffer => {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`the tracking script ${path} cannot be read (${code}): build it with npm run build`, { cause: err });
  }
};
