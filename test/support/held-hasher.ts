import { ScryptPasswordHasher } from '../../src/adapters/system/scrypt-password-hasher';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';

/** scrypt at a cost tests can afford (about a millisecond a hash); the stored form names it, so any instance verifies it. */
export const cheapScrypt = (): ScryptPasswordHasher => new ScryptPasswordHasher({ logN: 10, r: 8, p: 1 });

/**
 * The cheap scrypt hasher, counting the calls it is given and how many run at once, which a test can
 * hold back (`hold`) until it lets them go (`release`): a hash that takes as long as the test wants.
 */
export class HeldHasher implements PasswordHasher {
  private readonly inner = cheapScrypt();
  private gate: Promise<void> | undefined;
  private open: () => void = () => undefined;
  calls = 0;
  /** The password of each call, in the order the calls reached this hasher. */
  readonly order: string[] = [];
  inFlight = 0;
  maxInFlight = 0;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = undefined;
    this.open();
  }

  hash(password: string): Promise<string> {
    return this.counted(password, () => this.inner.hash(password));
  }

  verify(password: string, stored: string): Promise<boolean> {
    return this.counted(password, () => this.inner.verify(password, stored));
  }

  verifyNothing(password: string): Promise<void> {
    return this.counted(password, () => this.inner.verifyNothing(password));
  }

  private async counted<A>(password: string, work: () => Promise<A>): Promise<A> {
    this.calls++;
    this.order.push(password);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await this.gate;
      return await work();
    } finally {
      this.inFlight--;
    }
  }
}
