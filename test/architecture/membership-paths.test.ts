import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect } from 'chai';

/**
 * Only an account adds itself to a dashboard: a membership is written in two places only, each tested
 * for it (test/application/accounts/accounts.test.ts). Accepting an invitation adds the account that
 * was signed in or gave its password, or the one just made with the password chosen; the CLI's first
 * owner is always an account it makes. A new caller of `memberships.put` fails this test until it is
 * added here with tests of its own.
 */
const SRC = resolve(__dirname, '../../../src');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('the paths into a dashboard', () => {
  it('write a membership only when an invitation is accepted and when the CLI makes a new owner', () => {
    const writers = filesUnder(SRC)
      .filter((file) => /\bmemberships\.put\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
      .sort();
    expect(writers).to.deep.equal(['application/accounts/accept-invitation.ts', 'application/accounts/create-owner.ts']);
  });
});
