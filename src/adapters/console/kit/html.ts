/**
 * HTML from tagged templates, escaped by default: every interpolated value is text unless it is
 * itself `Html` (a template's result, or `trusted(...)` for markup the console wrote). A page cannot
 * forget to escape a value; it has to say so to not escape it.
 */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

export type Fragment = Html | string | number | null | undefined | false | readonly Fragment[];

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeText = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const render = (fragment: Fragment): string => {
  if (fragment instanceof Html) return fragment.markup;
  if (Array.isArray(fragment)) return (fragment as readonly Fragment[]).map(render).join('');
  if (fragment === null || fragment === undefined || fragment === false) return '';
  return escapeText(String(fragment));
};

export const html = (strings: TemplateStringsArray, ...values: readonly Fragment[]): Html =>
  new Html(strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]) : ''), ''));

/** Markup the console wrote itself (an SVG path, say), never a value that came from outside. */
export const trusted = (markup: string): Html => new Html(markup);
