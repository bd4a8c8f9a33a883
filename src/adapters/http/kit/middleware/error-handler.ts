import type { Middleware } from 'koa';
import type { RequestState } from '../request-state';
import { StorageUnavailableError } from '../../../../application/ports/storage-health';
import type { Logger } from '../../../../application/ports/logger';
import type { Metrics } from '../../../../application/ports/metrics';
import { ProblemError } from '../http-errors';
import { renderProblem } from '../problem';
import { BodyAbortedError } from './json-body';

/**
 * The one place where failures become responses: expected ones from their table row, storage outages
 * as 503, anything else as a bare 500. The log gets the error's name and message, never a stack or a
 * body; the client gets neither. A body that stopped arriving has nobody left to answer (Node has
 * answered 408 on the socket, or the client is gone): it is only logged, with its request id.
 */
export const errorHandler =
  (logger: Logger, metrics: Metrics): Middleware<RequestState> =>
  async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof ProblemError) {
        renderProblem(ctx, err.error);
        return;
      }
      if (err instanceof BodyAbortedError) {
        logger.warn('request body did not arrive', { requestId: ctx.state.requestId, errorMessage: err.message });
        renderProblem(ctx, { _tag: 'RequestTimeout' });
        return;
      }
      const unavailable = err instanceof StorageUnavailableError;
      if (unavailable) metrics.storeUnavailable();
      logger.error(unavailable ? 'storage unavailable' : 'unexpected error', {
        requestId: ctx.state.requestId,
        errorName: err instanceof Error ? err.name : typeof err,
        errorMessage: err instanceof Error ? err.message.slice(0, 300) : undefined,
      });
      renderProblem(ctx, { _tag: unavailable ? 'ServiceUnavailable' : 'InternalError' });
    }
  };
