import type { Principal } from '../../../application/access/authenticate-token';
import type { BodyShape } from './well-formed';

/** What the middleware leaves on `ctx.state` for the ones after it. */
export interface RequestState {
  requestId: string;
  /** Set by the authentication middleware on the public API. */
  principal?: Principal;
  /** Set under an Idempotency-Key: the id a resource created by this request must take. */
  reservedId?: string;
  /** What the check of the body's text found, on routes that take a body (middleware/json-body.ts). */
  bodyShape?: BodyShape;
  /** Set on the routes that take their body as bytes (`rawBody`). */
  rawBody?: Uint8Array;
}

export const principalOf = (state: RequestState): Principal => {
  if (state.principal === undefined) throw new Error('route reached without authentication');
  return state.principal;
};
