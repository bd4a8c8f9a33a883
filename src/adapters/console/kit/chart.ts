import { html, trusted, type Html } from './html';

export interface ChartPoint {
  /** What the bar is (a day, `Nov 3, 2026`), for its tooltip; `tick` is its short name under the axis. */
  readonly label: string;
  readonly tick: string;
  readonly value: number;
}

/**
 * The drawing's own units. Narrow on purpose: a 360-unit drawing shown 343 px wide (a 375 px phone)
 * draws its 11-unit text 10.5 px high; on a wide screen the chart's height bound (260 px) keeps it at
 * about 14 px.
 */
const WIDTH = 360;
const HEIGHT = 200;
const LEFT = 48;
const BOTTOM = 20;
const TOP = 10;
const GRIDLINES = 4;
const TICKS = 5;

/** A round step (1, 2 or 5 times a power of ten) that `lines` steps cover `max` with. */
const niceStep = (max: number, lines: number): number => {
  const raw = Math.max(1, max) / lines;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
};

const escapeSvg = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A bar chart drawn by the server as SVG (no script, DECISIONS D22): values on a labelled axis with
 * gridlines, each bar's value and day in its own `<title>` (the tooltip), labelled for screen readers.
 * The page shows the same numbers in a table beside it, so nothing is only in the picture.
 */
export const barChart = (
  title: string,
  points: readonly ChartPoint[],
  format: (value: number) => string,
  axis: (value: number) => string,
): Html => {
  const step = niceStep(Math.max(0, ...points.map((p) => p.value)), GRIDLINES);
  const top = step * GRIDLINES;
  const plot = HEIGHT - BOTTOM - TOP;
  const y = (value: number): number => HEIGHT - BOTTOM - (plot * value) / top;
  const band = (WIDTH - LEFT) / Math.max(1, points.length);
  const grid = Array.from({ length: GRIDLINES + 1 }, (_, i) => i * step)
    .map(
      (value) =>
        `<line class="grid" x1="${LEFT}" y1="${y(value).toFixed(1)}" x2="${WIDTH}" y2="${y(value).toFixed(1)}"></line>` +
        `<text class="value" x="${LEFT - 4}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${escapeSvg(axis(value))}</text>`,
    )
    .join('');
  const bars = points
    .map((point, i) => {
      const h = Math.max(0, (plot * point.value) / top);
      return `<rect class="bar" x="${(LEFT + i * band + band * 0.15).toFixed(1)}" y="${(HEIGHT - BOTTOM - h).toFixed(1)}" width="${(band * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${escapeSvg(`${point.label}: ${format(point.value)}`)}</title></rect>`;
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
  const highest = Math.max(0, ...points.map((p) => p.value));
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${title}: the highest bar is ${format(highest)}">
    <title>${title}</title>
    ${trusted(grid)}
    <line class="axis" x1="${LEFT}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - BOTTOM}"></line>
    ${trusted(bars)}${trusted(ticks)}
  </svg>`;
};
