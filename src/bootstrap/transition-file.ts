import { readFileSync } from 'node:fs';
import { isOrderStatus, ORDER_STATUSES, type OrderStatus } from '../domain/order-status';
import type { TransitionTable } from '../adapters/transitions/table-transition-policy';

/**
 * Reads `{ "pending": ["paid"], ... }`. Unknown status names, on either side, and any other shape are
 * problems: a typo must stop the start, not silently forbid a transition (decision 0006).
 */
const parseTransitionTable = (json: unknown): { table: TransitionTable; problems: string[] } => {
  const problems: string[] = [];
  const known = ORDER_STATUSES.join(', ');
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { table: {}, problems: ['must be a JSON object mapping a status to the statuses it may move to'] };
  }
  const table: Partial<Record<OrderStatus, OrderStatus[]>> = {};
  for (const [from, tos] of Object.entries(json)) {
    if (!isOrderStatus(from)) {
      problems.push(`has unknown status "${from}" (known: ${known})`);
      continue;
    }
    if (!Array.isArray(tos)) {
      problems.push(`"${from}" must map to an array of statuses`);
      continue;
    }
    for (const to of tos) {
      if (!isOrderStatus(to)) problems.push(`"${from}" lists unknown status ${JSON.stringify(to)} (known: ${known})`);
      else if (to === from) problems.push(`"${from}" lists itself; setting the current status is always a no-op`);
    }
    table[from] = tos.filter(isOrderStatus).filter((to) => to !== from);
  }
  return { table, problems };
};

export const readTransitions = (path: string, problems: string[]): TransitionTable => {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'not valid JSON';
    problems.push(`ORDER_TRANSITIONS_FILE ${path} cannot be read (${reason})`);
    return {};
  }
  const parsed = parseTransitionTable(json);
  problems.push(...parsed.problems.map((p) => `ORDER_TRANSITIONS_FILE ${path} ${p}`));
  return parsed.table;
};
