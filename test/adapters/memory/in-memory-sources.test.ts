import { InMemorySourceDeliveryLog } from '../../../src/adapters/memory/sources/in-memory-source-delivery-log';
import { InMemorySourceRepository } from '../../../src/adapters/memory/sources/in-memory-source-repository';
import { sourceDeliveryLogContract } from '../../contract/source-delivery-log.contract';
import { sourceRepositoryContract } from '../../contract/source-repository.contract';

sourceRepositoryContract('in-memory', async () => new InMemorySourceRepository());
sourceDeliveryLogContract('in-memory', async () => new InMemorySourceDeliveryLog());
