import type { SpendRepository } from '../ports/spend-repository';
import { ImportSpend } from './import-spend';
import { ListSpend } from './list-spend';
import { PutSpend } from './put-spend';

export interface SpendPorts {
  readonly spend: SpendRepository;
}

export const spendUseCases = ({ spend }: SpendPorts) => {
  const putSpend = new PutSpend(spend);
  return { putSpend, importSpend: new ImportSpend(putSpend), listSpend: new ListSpend(spend) };
};

export type SpendUseCases = ReturnType<typeof spendUseCases>;
