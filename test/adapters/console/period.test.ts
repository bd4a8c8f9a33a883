import { expect } from 'chai';
import { periodOf } from '../../../src/adapters/console/kit/period';

const NOW = new Date('2026-11-25T15:00:00Z');
const ZONE = 'America/Sao_Paulo';
const of = (query: Record<string, string>) => periodOf(new URLSearchParams(query), ZONE, NOW);

describe('the console’s period (decisions 0018, 0022)', () => {
  it('takes the preset the select names when From and To hold its own days, as the form sends them', () => {
    const preset = of({ period: '30' });
    expect([preset.key, preset.firstDay, preset.lastDay]).to.deep.equal(['30', '2026-10-27', '2026-11-25']);
    expect(of({ period: '30', from: '2026-10-27', to: '2026-11-25' })).to.deep.equal(preset);
  });

  it('applies From and To typed while the select still says “Last 30 days”', () => {
    const typed = of({ period: '30', from: '2026-11-01', to: '2026-11-10' });
    expect([typed.key, typed.firstDay, typed.lastDay, typed.problem]).to.deep.equal(['custom', '2026-11-01', '2026-11-10', undefined]);
    expect(typed.from.toISOString()).to.equal('2026-11-01T03:00:00.000Z');
    expect(typed.to.toISOString()).to.equal('2026-11-11T02:59:59.999Z');
  });

  it('applies one changed end with the preset’s other, and says so when they are in the wrong order', () => {
    const typed = of({ period: '7', from: '2026-11-01', to: '2026-11-25' });
    expect([typed.key, typed.firstDay, typed.lastDay]).to.deep.equal(['custom', '2026-11-01', '2026-11-25']);
    expect(of({ period: '7', from: '2026-12-01', to: '2026-11-25' }).problem).to.equal(
      'A custom period needs a first and a last day, in that order.',
    );
  });
});
