import { html, type Html } from './html';

/** A labelled `<select>` of `options`, `chosen` selected, with an empty first option named `empty` if given. */
export const select = (name: string, label: string, options: readonly string[], chosen: string, empty?: string): Html =>
  html`<div>
    <label for="${name}">${label}</label
    ><select id="${name}" name="${name}">
      ${empty === undefined ? '' : html`<option value="">${empty}</option>`}${options.map(
        (o) => html`<option value="${o}" ${o === chosen ? html` selected` : ''}>${o}</option>`,
      )}
    </select>
  </div>`;
