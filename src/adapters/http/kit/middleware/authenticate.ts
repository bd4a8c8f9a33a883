import * as E from 'fp-ts/Either';
import type { Middleware } from 'koa';
import type { AuthenticateToken } from '../../../../application/access/authenticate-token';
import type { Context } from 'koa';
import { ProblemError, validationFailed } from '../http-errors';

/** The token of an `Authorization: Bearer <token>` header, or undefined for anything else. */
const bearerToken = (header: string): string | undefined => {
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match?.[1];
};

/**
 * The one Authorization header of the request. Several are refused rather than one picked: Node keeps
 * the first, a proxy in front may check the last, and the two must never disagree about who called.
 */
const authorizationHeader = (ctx: Context): string => {
  let seen = 0;
  const raw = ctx.req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'authorization') seen++;
  if (seen > 1) throw validationFailed([{ path: 'header.Authorization', message: 'must be sent once' }]);
  return ctx.get('Authorization');
};

/**
 * The token of the request's `Authorization: Bearer <token>`, or the problem that says how to write
 * the header (decision 0024). The header itself is never echoed: it may hold a secret.
 */
export const requireBearerToken = (ctx: Context): string => {
  const header = authorizationHeader(ctx);
  const token = bearerToken(header);
  if (token !== undefined) return token;
  const sent = header.trim() === '' ? 'nothing' : /^Bearer(\s|$)/i.test(header) ? 'no-single-token' : 'another-scheme';
  throw new ProblemError({ _tag: 'BearerMissing', sent });
};

/** Resolves the caller's dashboard from the bearer token, or stops with 401 (decision 0008). */
export const authenticate =
  (useCase: AuthenticateToken): Middleware =>
  async (ctx, next) => {
    const principal = await useCase.execute(requireBearerToken(ctx));
    if (E.isLeft(principal)) throw new ProblemError(principal.left);
    ctx.state.principal = principal.right;
    await next();
  };
