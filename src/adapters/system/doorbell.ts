/** Wakes one waiting loop; rings while nobody waits are kept as one, for its next wait. */
export class Doorbell {
  private rung = false;
  private wake: (() => void) | undefined;

  ring(): void {
    if (this.wake === undefined) this.rung = true;
    else this.wake();
  }

  /** Resolves at the next ring (at once if it rang since the last wait), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.rung) {
      this.rung = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
