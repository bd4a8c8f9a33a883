import { html, type Fragment, type Html } from './html';

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
