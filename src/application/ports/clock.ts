/** The time, injected so that tests can move it. */
export interface Clock {
  now(): Date;
}
