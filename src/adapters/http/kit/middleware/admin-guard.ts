import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { unauthorized } from '../../../../application/shared/errors';
import { ProblemError } from '../http-errors';
import { requireBearerToken } from './authenticate';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Guards the admin API with ADMIN_TOKEN. Without it the admin API does not exist (404); with it, the
 * bearer token is compared through digests of equal length, in constant time (decision 0008).
 */
export const adminGuard = (adminToken: string | undefined): Middleware => {
  const expected = adminToken === undefined ? undefined : digest(adminToken);
  return async (ctx, next) => {
    if (expected === undefined) throw new ProblemError({ _tag: 'RouteNotFound', off: 'admin' });
    if (!timingSafeEqual(digest(requireBearerToken(ctx)), expected)) throw new ProblemError(unauthorized);
    await next();
  };
};
