import { html, trusted, type Html } from './html';

export interface ChartPoint {
  /** What the bar is (a day, `Nov 3, 2026`), for its tooltip; `tick` is its short name under the axis. */
  readonly label: string;
  readonly tick: string;
  /** Null where there is no figure (spend that cannot be joined): no bar. */
  readonly value: number | null;
}

export interface BarChart {
  /** Names the picture for screen readers and as its own `<title>`. */
  readonly title: string;
  /** The API's name of what is drawn (`profitCents`), for the page's tests and styles; never shown. */
  readonly metric: string;
  readonly points: readonly ChartPoint[];
  /** A bar's value in its tooltip (`R$1,234.50`), and an axis label (`R$1.2K`). */
  readonly format: (value: number) => string;
  readonly axis: (value: number) => string;
}

/**
 * The drawing's own units. Narrow on purpose: a 360-unit drawing shown 343 px wide (a 375 px phone)
 * draws its 11-unit text 10.5 px high; on a wide screen three charts side by side are each about as
 * wide, and one alone is bound by its height (260 px), which keeps the text at about 14 px.
 */
const WIDTH = 360;
const HEIGHT = 200;
const LEFT = 48;
const BOTTOM = 20;
const TOP = 10;
const GRIDLINES = 4;
const TICKS = 5;

/** A round step (1, 2 or 5 times a power of ten) that `lines` steps cover `span` with; whole units (cents) at least. */
const niceStep = (span: number, lines: number): number => {
  const raw = Math.max(1, span / lines);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
};

/**
 * The axis's range: from a whole number of steps below zero (when a value is negative, as a day's
 * profit can be) to a whole number above the highest value; zero is always one of its lines.
 */
const scaleOf = (values: readonly number[]): { readonly low: number; readonly high: number; readonly step: number } => {
  const least = Math.min(0, ...values);
  const most = Math.max(0, ...values);
  const step = niceStep(most - least, GRIDLINES);
  // `+ 0` turns -0 into 0, which an axis label would otherwise sign.
  const low = Math.floor(least / step) * step + 0;
  const high = Math.max(Math.ceil(most / step) * step, low + step);
  return { low, high, step };
};

const escapeSvg = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A bar chart drawn by the server as SVG (no script, decision 0022): values on a labelled axis with
 * gridlines and a zero line, a negative bar drawn down from it, each bar's value and day in its own
 * `<title>` (the tooltip), labelled for screen readers. The page shows the same numbers in a table
 * beside it, so nothing is only in the picture.
 */
export const barChart = ({ title, metric, points, format, axis }: BarChart): Html => {
  const values = points.flatMap((p) => (p.value === null ? [] : [p.value]));
  const { low, high, step } = scaleOf(values);
  const plot = HEIGHT - BOTTOM - TOP;
  const y = (value: number): number => TOP + (plot * (high - value)) / (high - low);
  const zero = y(0);
  const band = (WIDTH - LEFT) / Math.max(1, points.length);
  const grid = Array.from({ length: Math.round((high - low) / step) + 1 }, (_, i) => low + i * step)
    .map(
      (value) =>
        `<line class="grid" x1="${LEFT}" y1="${y(value).toFixed(1)}" x2="${WIDTH}" y2="${y(value).toFixed(1)}"></line>` +
        `<text class="value" x="${LEFT - 4}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${escapeSvg(axis(value))}</text>`,
    )
    .join('');
  const bars = points
    .map((point, i) => {
      if (point.value === null) return '';
      const top = Math.min(y(point.value), zero);
      const h = Math.abs(y(point.value) - zero);
      const tooltip = `<title>${escapeSvg(`${point.label}: ${format(point.value)}`)}</title>`;
      return `<rect class="bar${point.value < 0 ? ' negative' : ''}" x="${(LEFT + i * band + band * 0.15).toFixed(1)}" y="${top.toFixed(1)}" width="${(band * 0.7).toFixed(1)}" height="${h.toFixed(1)}">${tooltip}</rect>`;
    })
    .join('');
  const every = Math.max(1, Math.ceil(points.length / TICKS));
  const ticks = points
    .map((point, i) => ({ point, i }))
    .filter(({ i }) => i % every === 0)
    .map(
      ({ point, i }) =>
        `<text class="tick" x="${(LEFT + i * band + band / 2).toFixed(1)}" y="${HEIGHT - 5}" text-anchor="middle">${escapeSvg(point.tick)}</text>`,
    )
    .join('');
  const highest = Math.max(0, ...values);
  const lowest = Math.min(0, ...values);
  const summary = `${title}: the highest bar is ${format(highest)}${lowest < 0 ? `, the lowest ${format(lowest)}` : ''}`;
  return html`<svg class="chart" data-metric="${metric}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${summary}">
    <title>${title}</title>
    ${trusted(grid)}
    <line class="axis zero" x1="${LEFT}" y1="${zero.toFixed(1)}" x2="${WIDTH}" y2="${zero.toFixed(1)}"></line>
    ${trusted(bars)}${trusted(ticks)}
  </svg>`;
};
