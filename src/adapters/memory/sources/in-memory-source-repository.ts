import type { SourceRepository } from '../../../application/ports/source-repository';
import type { Source } from '../../../domain/source';
import { InMemoryDashboardRecords } from '../in-memory-dashboard-records';

/** Sources in the process. */
export class InMemorySourceRepository extends InMemoryDashboardRecords<Source> implements SourceRepository {}
