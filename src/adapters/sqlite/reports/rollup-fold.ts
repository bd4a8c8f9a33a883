import type { Database, Statement } from 'better-sqlite3';
import type { ProductName } from '../../../domain/product-report';
import type { TransactionFold } from '../group-commit';
import type { OrderRow } from '../orders/order-rows';

/** A value of a rollup's key column. */
export type KeyValue = string | number;

/**
 * Adds `sums` (in the order of the rollup's `sumColumns`) to the row of `key` (in the order of its
 * `keyColumns`). `text`, when given, is the key as a string no other key has (its JSON, say): a
 * rollup that makes the same keys again for many orders gives it, and saves the fold making it.
 * `name`, in a `named` rollup, is the name the order gives the row (see `Rollup.named`).
 */
export type AddTo = (key: readonly KeyValue[], sums: readonly number[], text?: string, name?: ProductName) => void;

/** The columns of a `named` rollup that hold its latest name, and whether that name's order has left the row since. */
export const NAME_COLUMNS = ['name', 'named_at', 'named_by', 'name_stale'] as const;

/**
 * A table of sums kept equal to a computation over `orders`, declared twice over the same columns:
 * in JS, the rows one order adds to (the fold, from the row its write binds), and in SQL, the whole
 * table from the orders (the rebuild). test/adapters/sqlite/rollup-fold.test.ts holds the two to the
 * same tables after random writes, rollup by rollup.
 */
export interface Rollup {
  readonly table: string;
  /** The primary key, in its order. */
  readonly keyColumns: readonly string[];
  readonly sumColumns: readonly string[];
  /**
   * The columns of `orders` that `contribute` reads: a change of an order reads them from the row it
   * replaces (in the same statement as its version), so that what the order took from the rollups is
   * what it had added.
   */
  readonly reads: readonly string[];
  /** Calls `add` for each row of the table the order counts in, with what it adds there. */
  readonly contribute: (row: OrderRow, add: AddTo) => void;
  /**
   * SELECTs over `orders AS o`, each giving the key columns then the sums (then the name columns), one
   * row per key: together, the table. They run in order, into the emptied table: a later one may sum
   * the rows an earlier one made.
   */
  readonly rebuild: readonly string[];
  /**
   * Whether each row also holds, in NAME_COLUMNS, the latest name an order gave it (by `createdAt`,
   * then order id, as `laterName`). Names do not add up: a write keeps the later of the row's and the
   * one offered, so the name is never older than the latest of the row's orders; taking away the
   * order that holds it (a replace that drops the product, renames it or moves the order) marks the
   * row's name stale, and a reader finds it again from the orders of that row (sqlite-product-reads.ts).
   * A later name offered is a live order's: it makes the row's name exact again.
   */
  readonly named?: boolean;
}

/** What the writes of a transaction add to one row of a rollup. */
interface Held {
  readonly key: readonly KeyValue[];
  readonly sums: number[];
  /** The latest name the writes offered. */
  name?: ProductName;
  /** The names of orders taken away and not added back as they were (a change of status adds its order back). */
  drops?: readonly ProductName[];
}

const sameName = (a: ProductName | undefined, b: ProductName): boolean =>
  a !== undefined && a.namedAt === b.namedAt && a.namedBy === b.namedBy && a.name === b.name;

/** `b` unless `a` is later: of two names of one order, the one written last. */
const laterOrLast = (a: ProductName | undefined, b: ProductName): ProductName =>
  a !== undefined && (a.namedAt > b.namedAt || (a.namedAt === b.namedAt && a.namedBy > b.namedBy)) ? a : b;

/** Rows per upsert statement: sizes are powers of two up to this, so few statements are prepared. */
const MAX_ROWS = 64;

/**
 * The rollups kept in the group commit (group-commit.ts) instead of triggers: each write that changes
 * an order records what the order adds to every rollup, or takes from it, as it writes (from the
 * values it binds, never reading the order back); the group commit keeps what the writes that
 * succeeded recorded, adds it up by row, and writes it just before COMMIT with one additive upsert
 * per distinct row. Same transaction as the orders, so a crash leaves both or neither; additive, so
 * two processes on one file add up.
 */
export class RollupFold implements TransactionFold {
  /** What the writes of the transaction add, per rollup, by row (its key's text). */
  private held: Map<string, Held>[];
  /** What the running write added, as (row, sums, sign) triples: taken back if it is rolled back. */
  private undo: (Held | readonly number[] | number)[] = [];
  /** What the running write changed of names, as (row, name before, drops before) triples. */
  private undoNames: (Held | ProductName | readonly ProductName[] | undefined)[] = [];
  /** What `settle` wrote during the running write: held again if that write is rolled back. */
  private settledInWrite: Map<string, Held>[] | undefined;
  private writing = false;
  private readonly upserts = new Map<string, Statement>();
  private readonly adders: AddTo[];
  private sign = 1;
  /** Every column of `orders` a rollup reads. */
  readonly reads: readonly string[];

  /**
   * `price` gives a row what it adds to the cost sums (rollup-costs.ts), inside the write that records
   * it; a row that already carries them (a re-pricing's) goes as it is.
   */
  constructor(
    private readonly db: Pick<Database, 'prepare'>,
    private readonly rollups: readonly Rollup[],
    private readonly price: (row: OrderRow) => OrderRow,
  ) {
    this.reads = [...new Set(rollups.flatMap((rollup) => rollup.reads))];
    this.held = this.empty();
    this.adders = rollups.map((_, rollup) => (key, sums, text, name) => {
      const rows = this.held[rollup];
      const id = text ?? JSON.stringify(key);
      let row = rows.get(id);
      if (row === undefined) rows.set(id, (row = { key, sums: sums.map(() => 0) }));
      for (let i = 0; i < sums.length; i++) row.sums[i] += this.sign * sums[i];
      this.undo.push(row, sums, this.sign);
      if (name !== undefined) this.offer(row, name);
    });
  }

  /** Records, for the write now running, what `row` adds to every rollup. */
  add(row: OrderRow): void {
    this.record(row, 1);
  }

  /**
   * Records, for the write now running, that the order `before` (its stored row, or at least the
   * columns of `reads`) became `after` (its row as written).
   */
  replace(before: OrderRow, after: OrderRow): void {
    this.record(before, -1);
    this.record(after, 1);
  }

  /**
   * Writes now, inside the running write and before it records anything, what the earlier writes of
   * the transaction hold: for a write that reads the rollup tables or sums them again from the
   * orders (`reports rebuild`).
   */
  settle(): void {
    this.mustBeWriting();
    if (this.undo.length > 0) throw new Error('a write settles the rollups before it records its own changes');
    const held = this.held;
    this.held = this.empty();
    this.settledInWrite = this.settledInWrite === undefined ? held : merged(this.settledInWrite, held);
    this.write(held);
  }

  begin(): void {
    this.held = this.empty();
    this.endWrite();
  }

  startWrite(): void {
    this.endWrite();
    this.writing = true;
  }

  keepWrite(): void {
    this.endWrite();
  }

  dropWrite(): void {
    const names = this.undoNames;
    for (let at = names.length - 3; at >= 0; at -= 3) {
      const row = names[at] as Held;
      row.name = names[at + 1] as ProductName | undefined;
      row.drops = names[at + 2] as readonly ProductName[] | undefined;
    }
    const undo = this.undo;
    for (let at = 0; at < undo.length; at += 3) {
      const row = undo[at] as Held;
      const sums = undo[at + 1] as readonly number[];
      const sign = undo[at + 2] as number;
      for (let i = 0; i < sums.length; i++) row.sums[i] -= sign * sums[i];
    }
    if (this.settledInWrite !== undefined) this.held = merged(this.held, this.settledInWrite);
    this.endWrite();
  }

  beforeCommit(): void {
    const held = this.held;
    this.held = this.empty();
    this.write(held);
  }

  private record(row: OrderRow, sign: number): void {
    this.mustBeWriting();
    this.sign = sign;
    const priced = this.price(row);
    for (let i = 0; i < this.rollups.length; i++) this.rollups[i].contribute(priced, this.adders[i]);
  }

  /** The row's name after the running write offers `name`, or takes it away when the sign is negative. */
  private offer(row: Held, name: ProductName): void {
    if (this.sign < 0) {
      this.undoNames.push(row, row.name, row.drops);
      row.drops = [...(row.drops ?? []), name];
      return;
    }
    const back = row.drops?.findIndex((dropped) => sameName(dropped, name)) ?? -1;
    if (back >= 0) {
      // The order was in the row when the write took it away: its name was offered then.
      this.undoNames.push(row, row.name, row.drops);
      row.drops = row.drops!.filter((_, i) => i !== back);
      return;
    }
    const later = laterOrLast(row.name, name);
    if (later === row.name) return;
    this.undoNames.push(row, row.name, row.drops);
    row.name = later;
  }

  private mustBeWriting(): void {
    if (!this.writing) throw new Error('rollups changed outside a write of the group commit');
  }

  private endWrite(): void {
    this.writing = false;
    this.undo = [];
    this.undoNames = [];
    this.settledInWrite = undefined;
  }

  private empty(): Map<string, Held>[] {
    return this.rollups.map(() => new Map<string, Held>());
  }

  /** One additive upsert per row that changes, as few statements as the powers of two allow. */
  private write(held: readonly Map<string, Held>[]): void {
    held.forEach((rows, rollup) => {
      const named = this.rollups[rollup].named === true;
      const changed = [...rows.values()].filter(
        ({ sums, name, drops }) => name !== undefined || (drops !== undefined && drops.length > 0) || sums.some((sum) => sum !== 0),
      );
      for (let at = 0; at < changed.length;) {
        let size = MAX_ROWS;
        while (size > changed.length - at) size /= 2;
        const values: (KeyValue | null)[] = [];
        for (const { key, sums, name } of changed.slice(at, at + size)) {
          values.push(...key, ...sums);
          if (named) values.push(name?.name ?? null, name?.namedAt ?? null, name?.namedBy ?? null, 0);
        }
        this.upsert(rollup, size).run(values);
        at += size;
      }
      if (named) this.markStale(rollup, changed);
    });
  }

  /** After the upserts: a row whose name is that of an order the writes took away is stale. */
  private markStale(rollup: number, rows: readonly Held[]): void {
    for (const { key, drops, name: offered } of rows)
      for (const dropped of drops ?? []) {
        // The same order's name offered again (a rename) is its name now.
        if (
          offered !== undefined &&
          offered.namedAt === dropped.namedAt &&
          offered.namedBy === dropped.namedBy &&
          !drops!.some((d) => sameName(d, offered))
        )
          continue;
        const name = `${rollup}:stale`;
        let statement = this.upserts.get(name);
        if (statement === undefined) {
          const { table, keyColumns } = this.rollups[rollup];
          statement = this.db.prepare(
            `UPDATE ${table} SET name_stale = 1 WHERE ${keyColumns.map((c) => `${c} = ?`).join(' AND ')} AND named_at = ? AND named_by = ?`,
          );
          this.upserts.set(name, statement);
        }
        statement.run(...key, dropped.namedAt, dropped.namedBy);
      }
  }

  private upsert(rollup: number, size: number): Statement {
    const name = `${rollup}:${size}`;
    let statement = this.upserts.get(name);
    if (statement === undefined) {
      const { table, keyColumns, sumColumns, named } = this.rollups[rollup];
      const columns = [...keyColumns, ...sumColumns, ...(named === true ? NAME_COLUMNS : [])];
      const row = `(${columns.map(() => '?').join(', ')})`;
      // A name offered replaces the row's unless the row's is later; none offered (NULL) leaves it.
      const later =
        'excluded.named_at IS NOT NULL AND (named_at IS NULL OR excluded.named_at > named_at OR (excluded.named_at = named_at AND excluded.named_by >= named_by))';
      const setNames = named === true ? NAME_COLUMNS.map((c) => `${c} = CASE WHEN ${later} THEN excluded.${c} ELSE ${c} END`) : [];
      statement = this.db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: size }, () => row).join(', ')}
         ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${[...sumColumns.map((c) => `${c} = ${c} + excluded.${c}`), ...setNames].join(', ')}`,
      );
      this.upserts.set(name, statement);
    }
    return statement;
  }
}

/** `from` added into `into`, row by row. */
const merged = (into: Map<string, Held>[], from: readonly Map<string, Held>[]): Map<string, Held>[] => {
  from.forEach((rows, rollup) =>
    rows.forEach(({ key, sums, name, drops }, id) => {
      const row = into[rollup].get(id);
      if (row === undefined) into[rollup].set(id, { key, sums: [...sums], name, drops });
      else {
        for (let i = 0; i < sums.length; i++) row.sums[i] += sums[i];
        if (name !== undefined) row.name = laterOrLast(row.name, name);
        if (drops !== undefined) row.drops = [...(row.drops ?? []), ...drops];
      }
    }),
  );
  return into;
};
