import * as t from 'io-ts';
import { str, strictObject } from './codec-kit';

export const CreateDashboardBody = strictObject('CreateDashboardBody', { name: str(1, 200) });
export type CreateDashboardBody = t.TypeOf<typeof CreateDashboardBody>;

export const CreateTokenBody = strictObject('CreateTokenBody', {}, { name: str(1, 200) });
export type CreateTokenBody = t.TypeOf<typeof CreateTokenBody>;

/** Ids of dashboards and tokens as they arrive in a path; anything else cannot name one. */
export const IdParam = str(1, 64);
