import * as E from 'fp-ts/Either';
import type { Middleware } from 'koa';
import type { AuthenticateToken } from '../../../../application/access/authenticate-token';
import { unauthorized } from '../../../../application/shared/errors';
import { ProblemError } from '../http-errors';

/** The token of an `Authorization: Bearer <token>` header, or undefined for anything else. */
export const bearerToken = (header: string): string | undefined => {
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match?.[1];
};

/** Resolves the caller's dashboard from the bearer token, or stops with 401 (DECISIONS D8). */
export const authenticate =
  (useCase: AuthenticateToken): Middleware =>
  async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization'));
    if (token === undefined) throw new ProblemError(unauthorized);
    const principal = await useCase.execute(token);
    if (E.isLeft(principal)) throw new ProblemError(principal.left);
    ctx.state.principal = principal.right;
    await next();
  };
