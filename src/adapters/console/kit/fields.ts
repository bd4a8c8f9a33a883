import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../domain/account';
import { html, trusted, type Fragment, type Html } from './html';

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

/**
 * A fieldset of checkboxes named `name`, one per option, those `chosen` checked; `label` names each
 * for a person. Each box's id is `name` and its option, punctuation made `-` (`scope-orders-read`).
 */
export const checkboxes = <V extends string>(
  name: string,
  legend: Fragment,
  options: readonly V[],
  chosen: readonly V[],
  label: (option: V) => Fragment,
): Html =>
  html`<fieldset>
    <legend>${legend}</legend>
    ${options.map((option) => {
      const id = `${name}-${option.replace(/[.:]/g, '-')}`;
      return html`<div class="check">
        <input type="checkbox" id="${id}" name="${name}" value="${option}" ${chosen.includes(option) ? html` checked` : ''} />
        <label for="${id}">${label(option)}</label>
      </div>`;
    })}
  </fieldset>`;

/** What an `<input>` says besides its name: each attribute as given, a `true` written bare, `false` and undefined left out. */
export type InputAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

const ATTRIBUTE_NAME = /^[a-z][a-z-]*$/;

/** Attribute names come from the console's code, never from a request; checked anyway, as they are not escaped. */
const attributesOf = (attributes: InputAttributes): Fragment =>
  Object.entries(attributes)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value], i) => {
      if (!ATTRIBUTE_NAME.test(name)) throw new Error(`not an attribute name: ${name}`);
      const separator = i === 0 ? '' : ' ';
      return value === true ? html`${separator}${trusted(name)}` : html`${separator}${trusted(name)}="${value}"`;
    });

/** A labelled `<input>` whose name is its id too, with its `attributes` (`type`, `required`, `maxlength`, `value`, …). */
export const input = (name: string, label: Fragment, attributes: InputAttributes = {}): Html =>
  html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" ${attributesOf(attributes)} /></div>`;

/** A password's field: a new one, within the lengths a password may have, or the current one, typed as it was chosen. */
export const passwordInput = (name: string, label: Fragment, autocomplete: 'new-password' | 'current-password'): Html =>
  input(name, label, {
    type: 'password',
    autocomplete,
    required: true,
    minlength: autocomplete === 'new-password' ? PASSWORD_MIN_LENGTH : undefined,
    maxlength: PASSWORD_MAX_LENGTH,
  });
