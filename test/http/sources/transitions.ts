/** A transition table that lets sources do their work (docs/incoming/r27-sources.md, operations). */
export const TRANSITIONS = {
  pending: ['paid', 'refused'],
  refused: ['paid'],
  paid: ['refunded', 'chargedback'],
  refunded: ['chargedback'],
} as const;
