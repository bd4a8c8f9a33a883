import { html, trusted, type Html } from './html';

export interface ChartPoint {
  readonly label: string;
  readonly value: number;
}

/**
 * A bar chart drawn by the server as SVG (no script), labelled for screen readers; the page shows the
 * same numbers in a table beside it, so nothing is only in the picture.
 */
export const barChart = (title: string, points: readonly ChartPoint[], format: (value: number) => string): Html => {
  const width = 720;
  const height = 220;
  const bottom = 24;
  const top = 16;
  const max = Math.max(1, ...points.map((p) => p.value));
  const step = points.length === 0 ? width : width / points.length;
  const bars = points
    .map((point, i) => {
      const h = Math.round(((height - bottom - top) * point.value) / max);
      const x = (i * step + step * 0.1).toFixed(1);
      return `<rect class="bar" x="${x}" y="${height - bottom - h}" width="${(step * 0.8).toFixed(1)}" height="${h}"></rect>`;
    })
    .join('');
  const ticks = points
    .map((point, i) => ({ point, i }))
    .filter(({ i }) => points.length <= 10 || i % Math.ceil(points.length / 8) === 0)
    .map(
      ({ point, i }) =>
        `<text x="${(i * step + step / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${escapeSvg(point.label.slice(5))}</text>`,
    )
    .join('');
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}: the highest bar is ${format(max)}">
    <title>${title}</title>
    <line class="axis" x1="0" y1="${height - bottom}" x2="${width}" y2="${height - bottom}"></line>
    <text x="0" y="12">${format(max)}</text>
    ${trusted(bars)}${trusted(ticks)}
  </svg>`;
};

const escapeSvg = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
