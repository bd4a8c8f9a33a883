import { expect } from 'chai';
import { TableTransitionPolicy, type TransitionTable } from '../../src/adapters/transitions/table-transition-policy';
import { ORDER_STATUSES, type OrderStatus } from '../../src/domain/order-status';

/** Every ordered pair of two different statuses: the only questions a policy is ever asked. */
const everyChange = (): Array<[OrderStatus, OrderStatus]> =>
  ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.filter((to) => to !== from).map((to): [OrderStatus, OrderStatus] => [from, to]));

const allowedBy = (policy: TableTransitionPolicy): string[] =>
  everyChange()
    .filter(([from, to]) => policy.allows(from, to))
    .map(([from, to]) => `${from}>${to}`);

describe('TableTransitionPolicy', () => {
  it('refuses every change of status when built with no table', () => {
    expect(everyChange()).to.have.lengthOf(20);
    expect(allowedBy(new TableTransitionPolicy())).to.deep.equal([]);
  });

  it('refuses every change of status with the empty table', () => {
    expect(allowedBy(new TableTransitionPolicy({}))).to.deep.equal([]);
  });

  it('refuses every change from a status listed with no targets', () => {
    expect(allowedBy(new TableTransitionPolicy({ pending: [] }))).to.deep.equal([]);
  });

  it('allows exactly the changes the table lists, and in their direction only', () => {
    // A table written for this test: the service itself ships none (decision 0006).
    const table: TransitionTable = { pending: ['paid', 'refused'], paid: ['refunded'] };
    expect(allowedBy(new TableTransitionPolicy(table))).to.have.members(['pending>paid', 'pending>refused', 'paid>refunded']);
    expect(allowedBy(new TableTransitionPolicy(table))).to.have.lengthOf(3);
  });

  it('does not change when the table it was built from is changed afterwards', () => {
    const table: { pending: OrderStatus[] } = { pending: ['paid'] };
    const policy = new TableTransitionPolicy(table);
    table.pending.push('refused');
    expect(policy.allows('pending', 'refused')).to.equal(false);
    expect(policy.allows('pending', 'paid')).to.equal(true);
  });
});
