import { createHash } from 'node:crypto';

/**
 * The console's two static files, served under a name with their content's hash so that they can be
 * cached for a year (`immutable`): a new version has a new name. No font, image or script comes from
 * anywhere else (decision 0018).
 */
const CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --soft: #f6f8fa; --accent: #0550ae; --bad: #a40e26; --good: #116329; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
a:focus, button:focus, input:focus, select:focus, textarea:focus { outline: 3px solid #ffbf47; outline-offset: 1px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 16px; border-bottom: 1px solid var(--line); background: var(--soft); }
header.top .brand { font-weight: 700; margin-right: auto; }
nav.main ul { display: flex; flex-wrap: wrap; gap: 4px 12px; list-style: none; margin: 0; padding: 0; }
nav.main a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
main { padding: 16px; max-width: 1100px; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; } h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; margin: 0; }
.cards div { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
.cards dt { color: var(--muted); font-size: 0.85rem; } .cards dd { margin: 0; font-size: 1.25rem; font-weight: 600; }
.cards dd.change { font-size: 0.85rem; font-weight: 400; color: var(--muted); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
form.inline { display: inline; }
.check { display: flex; gap: 6px; align-items: baseline; } .check label { display: inline; color: var(--fg); }
table.keyed tbody th { font-weight: 600; }
table.keyed th:first-child { position: sticky; left: 0; background: var(--bg); z-index: 1; box-shadow: 1px 0 0 var(--line); }
table.keyed th:first-child { min-width: 7rem; max-width: 14rem; overflow-wrap: anywhere; }
main:has(table.report) { max-width: none; }
table.report th, table.keyed.report th:first-child { overflow-wrap: normal; word-break: normal; hyphens: manual; }
th[aria-sort="descending"] a::after { content: " ↓"; content: " ↓" / ""; }
th[aria-sort="ascending"] a::after { content: " ↑"; content: " ↑" / ""; }
.loss { color: var(--bad); font-weight: 600; }
.loss-word { font-size: 0.75em; font-weight: 700; text-transform: uppercase; letter-spacing: 0.03em; border: 1px solid currentColor; border-radius: 3px; padding: 0 3px; }
a.uncosted { display: block; white-space: normal; font-size: 0.8rem; max-width: 10rem; margin-left: auto; }
.cards dd.uncosted { font-size: 0.85rem; font-weight: 400; }
p.uncosted { padding: 6px 10px; border-left: 4px solid #9a6700; background: #fff8c5; }
details.columns { align-self: center; } details.columns[open] { flex-basis: 100%; }
details.columns[open] > div { display: inline-flex; margin-right: 12px; }
form.stack { display: grid; gap: 8px; max-width: 520px; grid-template-columns: minmax(0, 1fr); }
input[type=file] { width: 100%; }
form.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin-bottom: 12px; }
label { display: block; font-size: 0.9rem; color: var(--muted); }
input, select, textarea { font: inherit; padding: 6px 8px; border: 1px solid #8c959f; border-radius: 4px; max-width: 100%; color: var(--fg); background: #fff; }
textarea { width: 100%; min-height: 8rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; } legend { color: var(--muted); }
button { font: inherit; padding: 6px 12px; border-radius: 4px; border: 1px solid #1f6feb; background: #0969da; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.notice { padding: 8px 12px; border-radius: 6px; background: #ddf4ff; border: 1px solid #54aeff; margin-bottom: 12px; }
.error { padding: 8px 12px; border-radius: 6px; background: #ffebe9; border: 1px solid #ff8182; margin-bottom: 12px; color: var(--bad); }
.summary p { margin: 0; } .summary ul { margin: 4px 0 0; padding-left: 1.25rem; } .summary a { color: var(--bad); }
.field-problem { margin: 2px 0 0; color: var(--bad); font-size: 0.9rem; } input[aria-invalid="true"] { border-color: var(--bad); }
.help { color: var(--muted); font-size: 0.85rem; } .help p { margin: 2px 0 4px; } .help code { word-break: normal; overflow-wrap: anywhere; }
fieldset.fields { display: grid; gap: 8px; min-width: 0; grid-template-columns: minmax(0, 1fr); }
.secret { font-family: ui-monospace, monospace; word-break: break-all; background: var(--soft); padding: 8px; border-radius: 4px; display: block; }
.muted { color: var(--muted); }
code { font-family: ui-monospace, monospace; word-break: break-all; }
ul.csv-help code { word-break: normal; overflow-wrap: anywhere; }
svg.chart { width: 100%; height: auto; max-height: 260px; display: block; }
svg.chart .bar { fill: #0969da; } svg.chart .bar:hover { fill: #0550ae; }
svg.chart .bar.negative { fill: var(--bad); } svg.chart .bar.negative:hover { fill: #82071e; }
.charts { display: grid; gap: 8px 16px; grid-template-columns: repeat(auto-fit, minmax(min(330px, 100%), 1fr)); }
.charts section { min-width: 0; } .charts h3 { font-size: 1rem; margin: 0.5rem 0 0.25rem; }
svg.chart .axis { stroke: #57606a; } svg.chart .grid { stroke: var(--line); stroke-dasharray: 2 3; }
svg.chart text { font-size: 11px; fill: var(--muted); font-variant-numeric: tabular-nums; }
details summary { cursor: pointer; color: var(--accent); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); padding: 8px; border-radius: 4px; font-size: 0.85rem; max-width: 100%; }
details.body pre { max-height: 16rem; overflow-y: auto; }
.ways { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); }
.ways section { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 0; } .ways h3 { margin: 0.25rem 0; font-size: 1rem; }
.pages { display: flex; gap: 12px; margin-top: 12px; }
h1, h2, p, li, label { overflow-wrap: break-word; }
dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) minmax(0, 1fr); gap: 4px 16px; margin: 0 0 12px; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.state-needsAttention { color: var(--bad); font-weight: 600; } .state-ok { color: var(--good); }
.zone-note { display: block; color: var(--muted); font-size: 0.85rem; }
`;

const JS = `
document.addEventListener('click', function (event) {
  var button = event.target.closest && event.target.closest('button[data-copy]');
  if (!button || !navigator.clipboard) return;
  event.preventDefault();
  navigator.clipboard.writeText(button.getAttribute('data-copy')).then(function () { button.textContent = 'Copied'; });
});
`;

/** The tab's icon: a bar chart in the console's blue, 300 bytes, drawn as SVG so that one file serves every size. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0969da"/><rect x="3" y="8" width="2.5" height="5" fill="#fff"/><rect x="6.75" y="5" width="2.5" height="8" fill="#fff"/><rect x="10.5" y="3" width="2.5" height="10" fill="#fff"/></svg>`;

export interface ConsoleAsset {
  readonly path: string;
  readonly type: string;
  readonly body: string;
}

const hashed = (name: string, extension: string, type: string, body: string): ConsoleAsset => ({
  path: `/console/assets/${name}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${extension}`,
  type,
  body,
});

export const STYLESHEET = hashed('console', 'css', 'text/css; charset=utf-8', CSS);
export const SCRIPT = hashed('console', 'js', 'text/javascript; charset=utf-8', JS);
export const ICON_ASSET = hashed('icon', 'svg', 'image/svg+xml', ICON);
export const ASSETS: readonly ConsoleAsset[] = [STYLESHEET, SCRIPT, ICON_ASSET];
