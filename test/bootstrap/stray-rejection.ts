/**
 * Preloaded into the service by a test (NODE_OPTIONS=--require): at SIGUSR2, a promise rejected with
 * nobody to handle it, its message holding what a request body might, as a bug would leave one.
 */
process.on('SIGUSR2', () => {
  void Promise.reject(Object.assign(new Error('card 4111 1111 1111 1111 in a body'), { code: 'EBUG' }));
});
