import type { Source, SourceDelivery } from '../../src/domain/source';

/** A source of `dsh_a` with fixed values, changed by `overrides`. */
export const aSource = (id: string, overrides: Partial<Source> = {}): Source => ({
  id,
  dashboardId: 'dsh_a',
  platform: 'shopify',
  name: 'My store',
  secret: 'shpss_0123456789abcdef',
  createdAt: new Date('2026-01-02T03:04:05.006Z'),
  updatedAt: new Date('2026-01-02T03:04:05.006Z'),
  version: 1,
  ...overrides,
});

/** A delivery of `src_1` with fixed values, changed by `overrides`. */
export const aSourceDelivery = (id: string, overrides: Partial<SourceDelivery> = {}): SourceDelivery => ({
  id,
  sourceId: 'src_1',
  dashboardId: 'dsh_a',
  receivedAt: new Date('2026-01-02T03:04:05.006Z'),
  outcome: 'ignored',
  ...overrides,
});
