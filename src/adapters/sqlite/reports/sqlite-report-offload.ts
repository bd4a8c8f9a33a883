import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  Breakdown,
  CellQuery,
  ProductQuery,
  ProductReport,
  RankedBreakdownQuery,
  ReportCell,
  UncostedProducts,
  UncostedQuery,
  UncostedSummary,
} from '../../../application/ports/report-reader';
import type { SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import { StorageUnavailableError } from '../../../application/ports/storage-health';
import type { ReportOffload } from './sqlite-report-reader';
import type { ReportRequest } from './sqlite-report-worker';

interface Pending {
  readonly resolve: (reply: Answered) => void;
  readonly reject: (error: Error) => void;
}

type Answered =
  | { readonly cells: ReportCell[] }
  | { readonly breakdown: Breakdown }
  | { readonly products: ProductReport }
  | { readonly uncostedProducts: UncostedProducts }
  | { readonly uncosted: UncostedSummary }
  | { readonly spend: SpendSum[] };

/** What the thread answers a request: what was asked, or why not. */
export type ReportReply =
  ({ readonly id: number } & Answered) | { readonly id: number; readonly error: { message: string; unavailable: boolean } };

/** The request without its id, which `ask` gives it. */
type Asked = ReportRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * One worker thread for the reports of a SQLite file, started at the first report and kept (it does
 * not keep the process alive). Reports read there one after the other; a thread that dies fails the
 * reports it held with 503 and is started again at the next one.
 */
export class SqliteReportOffload implements ReportOffload {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private closed = false;

  constructor(private readonly file: string) {}

  async cells(dashboardId: string, query: CellQuery): Promise<ReportCell[]> {
    const reply = await this.ask({ kind: 'cells', dashboardId, query });
    return 'cells' in reply ? reply.cells : [];
  }

  async breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown> {
    const reply = await this.ask({ kind: 'breakdown', dashboardId, query });
    return 'breakdown' in reply ? reply.breakdown : { rows: [], totalRows: 0, uncostedUnits: 0 };
  }

  async products(dashboardId: string, query: ProductQuery): Promise<ProductReport> {
    const reply = await this.ask({ kind: 'products', dashboardId, query });
    return 'products' in reply ? reply.products : { rows: [], totalRows: 0, uncosted: { units: 0, products: 0 } };
  }

  async uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts> {
    const reply = await this.ask({ kind: 'uncostedProducts', dashboardId, query });
    return 'uncostedProducts' in reply ? reply.uncostedProducts : { rows: [], totalRows: 0, units: 0, products: 0 };
  }

  async uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): Promise<UncostedSummary> {
    const reply = await this.ask({ kind: 'uncosted', dashboardId, query });
    return 'uncosted' in reply ? reply.uncosted : { units: 0, products: 0 };
  }

  async spendSums(dashboardId: string, query: SpendSumQuery): Promise<SpendSum[]> {
    const reply = await this.ask({ kind: 'spend', dashboardId, query });
    return 'spend' in reply ? reply.spend : [];
  }

  private ask(request: Asked): Promise<Answered> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('the SQLite store is closed'));
    const id = ++this.next;
    return new Promise<Answered>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.thread().postMessage({ id, ...request });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new StorageUnavailableError('the SQLite store is closing'));
    if (worker !== undefined) await worker.terminate();
  }

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(join(__dirname, 'sqlite-report-worker.js'), { workerData: { file: this.file } });
    worker.unref();
    worker.on('message', (reply: ReportReply) => {
      const waiting = this.pending.get(reply.id);
      if (waiting === undefined) return;
      this.pending.delete(reply.id);
      if (!('error' in reply)) waiting.resolve(reply);
      else if (reply.error.unavailable) waiting.reject(new StorageUnavailableError(`SQLite store unavailable: ${reply.error.message}`));
      else waiting.reject(new Error(reply.error.message));
    });
    const lost = (err: unknown): void => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new StorageUnavailableError(`the report thread stopped (${err instanceof Error ? err.message : String(err)})`));
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.reject(error);
    }
  }
}
