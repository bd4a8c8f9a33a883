import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../domain/account';
import { html, trusted, type Fragment, type Html } from './html';

/**
 * A labelled `<select>` of `options`, `chosen` selected, with an empty first option named `empty` if
 * given. The values are the API's names (the query a page is bookmarked with); `words` names them for
 * a person (decision 0022).
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

/** What is wrong with a refused form: about one field (`field`, its input's id, named by `label`) or about the whole form. */
export interface FormProblem {
  readonly field?: string;
  readonly label?: string;
  /** Said after the label: `must be …`, `is required …`. */
  readonly message: string;
}

const sentence = (problem: FormProblem): string => (problem.label === undefined ? problem.message : `${problem.label} ${problem.message}`);

/**
 * A refused form's problems above the page, each linked to its field: the reader sees them all where
 * the page opens, and each field says its own again beside it.
 */
export const problemSummary = (lead: string, problems: readonly FormProblem[]): Fragment =>
  problems.length === 0
    ? ''
    : html`<div class="error summary" role="alert">
        <p>${lead}</p>
        <ul>
          ${problems.map((p) => html`<li>${p.field === undefined ? sentence(p) : html`<a href="#${p.field}">${sentence(p)}</a>`}</li>`)}
        </ul>
      </div>`;

interface FieldParts {
  /** What the field is for and the form its value takes, under it. */
  readonly help?: Fragment;
  /** The refused form's problems: the field's own is shown beside it, and the input marked invalid. */
  readonly problems?: readonly FormProblem[];
}

/** The help and problem under an input, and the attributes that tie them to it. */
const partsOf = (name: string, parts: FieldParts) => {
  const problem = parts.problems?.find((p) => p.field === name);
  const ids = [...(problem === undefined ? [] : [`${name}-problem`]), ...(parts.help === undefined ? [] : [`${name}-help`])];
  return {
    attributes: html`${ids.length === 0 ? '' : html` aria-describedby="${ids.join(' ')}"`}${problem === undefined ? '' : html` aria-invalid="true"`}`,
    below: html`${problem === undefined ? '' : html`<p class="field-problem" id="${name}-problem">${sentence(problem)}</p>`}${
      parts.help === undefined ? '' : html`<div class="help" id="${name}-help">${parts.help}</div>`
    }`,
  };
};

/** A labelled text input (a password's never holds a value), with its help and its problem. */
export const textField = (
  name: string,
  label: string,
  value: string,
  parts: FieldParts & { readonly maxlength: number; readonly required?: boolean; readonly type?: 'text' | 'password' } = { maxlength: 255 },
): Html => {
  const { attributes, below } = partsOf(name, parts);
  const secret = parts.type === 'password';
  return html`<div>
    <label for="${name}">${label}</label
    ><input
      id="${name}"
      name="${name}"
      ${secret ? html` type="password" autocomplete="off"` : html` value="${value}"`}
      maxlength="${parts.maxlength}"
      ${parts.required === true ? html` required` : ''}${attributes}
    />${below}
  </div>`;
};

/** A labelled checkbox sent as `on` when checked; `role: 'switch'` for one that turns something on or off. */
export const checkField = (name: string, label: string, checked: boolean, parts: FieldParts & { readonly role?: 'switch' } = {}): Html => {
  const { attributes, below } = partsOf(name, parts);
  return html`<div>
    <div class="check">
      <input
        type="checkbox"
        id="${name}"
        name="${name}"
        value="on"
        ${parts.role === undefined ? '' : html` role="${parts.role}"`}${checked ? html` checked` : ''}${attributes}
      /><label for="${name}">${label}</label>
    </div>
    ${below}
  </div>`;
};

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
