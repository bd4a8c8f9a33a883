import type { ProductCostRepository } from '../ports/product-cost-repository';
import { ListProductCosts } from './list-product-costs';
import { PutProductCosts } from './put-product-costs';

export interface CostPorts {
  readonly productCosts: ProductCostRepository;
}

export const costUseCases = ({ productCosts }: CostPorts) => ({
  putProductCosts: new PutProductCosts(productCosts),
  listProductCosts: new ListProductCosts(productCosts),
});

export type CostUseCases = ReturnType<typeof costUseCases>;
