import type { Middleware } from 'koa';
import type { CheckRateLimit } from '../../../../application/guards/check-rate-limit';
import type { Metrics } from '../../../../application/ports/metrics';
import { ProblemError } from '../http-errors';
import { principalOf } from '../request-state';

/**
 * Counts the request against its token, after authentication (a request with a bad token costs no
 * token any quota), and sets the headers of draft-ietf-httpapi-ratelimit-headers on every
 * authenticated response (decision 0009).
 */
export const rateLimit =
  (check: CheckRateLimit, metrics: Metrics): Middleware =>
  async (ctx, next) => {
    const decision = await check.execute(principalOf(ctx.state).tokenId, ctx.method === 'GET' || ctx.method === 'HEAD');
    ctx.set('RateLimit-Policy', `"default";q=${decision.limit};w=${decision.windowSeconds}`);
    ctx.set('RateLimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (!decision.allowed) {
      metrics.rateLimited();
      throw new ProblemError({
        _tag: 'RateLimitExceeded',
        retryAfterSeconds: decision.resetSeconds,
        limit: decision.limit,
        windowSeconds: decision.windowSeconds,
      });
    }
    await next();
  };
