/** What `promise` rejected with; fails the test when it resolves. */
export const rejectionOf = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
};

/** What `action` threw; fails the test when it returns. */
export const failureOf = (action: () => unknown): Error => {
  try {
    action();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
};
