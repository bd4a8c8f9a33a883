import type { SpendRepository } from '../ports/spend-repository';
import { ListSpend } from './list-spend';
import { PutSpend } from './put-spend';

export interface SpendPorts {
  readonly spend: SpendRepository;
}

export const spendUseCases = ({ spend }: SpendPorts) => ({
  putSpend: new PutSpend(spend),
  listSpend: new ListSpend(spend),
});

export type SpendUseCases = ReturnType<typeof spendUseCases>;
