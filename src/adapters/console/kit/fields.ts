import { html, type Html } from './html';

/**
 * A labelled `<select>` of `options`, `chosen` selected, with an empty first option named `empty` if
 * given. The values are the API's names (the query a page is bookmarked with); `words` names them for
 * a person (DECISIONS D22).
 */
export const select = (
  name: string,
  label: string,
  options: readonly string[],
  chosen: string,
  empty?: string,
  words: Readonly<Record<string, string>> = {},
): Html =>
  html`<div>
    <label for="${name}">${label}</label
    ><select id="${name}" name="${name}">
      ${empty === undefined ? '' : html`<option value="">${empty}</option>`}${options.map(
        (o) => html`<option value="${o}" ${o === chosen ? html` selected` : ''}>${words[o] ?? o}</option>`,
      )}
    </select>
  </div>`;
