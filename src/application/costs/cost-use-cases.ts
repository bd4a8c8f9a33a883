import type { ProductCostRepository } from '../ports/product-cost-repository';
import { ImportProductCosts } from './import-product-costs';
import { ListProductCosts } from './list-product-costs';
import { PutProductCosts } from './put-product-costs';

export interface CostPorts {
  readonly productCosts: ProductCostRepository;
}

export const costUseCases = ({ productCosts }: CostPorts) => {
  const putProductCosts = new PutProductCosts(productCosts);
  return {
    putProductCosts,
    importProductCosts: new ImportProductCosts(putProductCosts),
    listProductCosts: new ListProductCosts(productCosts),
  };
};

export type CostUseCases = ReturnType<typeof costUseCases>;
