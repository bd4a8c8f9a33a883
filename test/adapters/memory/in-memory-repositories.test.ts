import { InMemoryDashboardRepository } from '../../../src/adapters/memory/in-memory-dashboard-repository';
import { InMemoryLinkRepository } from '../../../src/adapters/memory/in-memory-link-repository';
import { InMemoryOrderRepository } from '../../../src/adapters/memory/in-memory-order-repository';
import { InMemoryTokenRepository } from '../../../src/adapters/memory/in-memory-token-repository';
import { dashboardRepositoryContract } from '../../contract/dashboard-repository.contract';
import { linkRepositoryContract } from '../../contract/link-repository.contract';
import { orderRepositoryContract } from '../../contract/order-repository.contract';
import { reportReaderContract } from '../../contract/report-reader.contract';
import { spendRepositoryContract } from '../../contract/spend-repository.contract';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { tokenRepositoryContract } from '../../contract/token-repository.contract';

orderRepositoryContract('in-memory', async () => new InMemoryOrderRepository());
dashboardRepositoryContract('in-memory', async () => new InMemoryDashboardRepository());
tokenRepositoryContract('in-memory', async () => new InMemoryTokenRepository());
linkRepositoryContract('in-memory', async () => new InMemoryLinkRepository());
reportReaderContract('in-memory', async () => inMemoryStorage());
spendRepositoryContract('in-memory', async () => inMemoryStorage().spend);
