/**
 * Preloaded into the service by a test (NODE_OPTIONS=--require). Opening process.stdout on a pipe
 * switches the pipe to non-blocking writes, as any console.log in the process would. There a log
 * write that meets a full pipe becomes a retry timer, which pino's synchronous flush at exit skips:
 * the case where the last lines are lost unless the service waits for its log before it exits.
 */
void process.stdout;
