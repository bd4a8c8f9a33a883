import * as E from 'fp-ts/Either';
import { DESTINATION_MAX, parseDestination, UTM_MAX } from '../../../domain/campaign-url';
import { MAX_LINK_NAME_LENGTH, type LinkInput } from '../../../domain/link';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { input } from '../kit/fields';
import { dateTime } from '../kit/format';
import { html, type Html } from '../kit/html';
import { csrfField, notice, page, postButton, problem, type Viewer } from '../kit/layout';
import { field, param } from '../kit/router';
import { table } from '../kit/table';

const NOTICES: Readonly<Record<string, string>> = {
  deleted: 'The link was deleted; its short link answers 404 from now on.',
};

const linkForm = (viewer: Viewer, values: URLSearchParams, preview?: string, message?: string) => {
  const given = (name: string): string => values.get(name) ?? '';
  return html`${problem(message)}
    <form class="stack" method="post" action="/console/links">
      ${csrfField(viewer)}
      ${input('destinationUrl', 'Destination URL', { type: 'url', required: true, maxlength: DESTINATION_MAX, value: given('destinationUrl') })}
      ${input('utmSource', html`Source <code>utm_source</code>`, { required: true, maxlength: UTM_MAX, value: given('utmSource') })}
      ${input('utmMedium', html`Medium <code>utm_medium</code>`, { required: true, maxlength: UTM_MAX, value: given('utmMedium') })}
      ${input('utmCampaign', html`Campaign <code>utm_campaign</code>`, { required: true, maxlength: UTM_MAX, value: given('utmCampaign') })}
      ${input('utmContent', html`Ad content <code>utm_content</code> (optional)`, { maxlength: UTM_MAX, value: given('utmContent') })}
      ${input('utmTerm', html`Keyword <code>utm_term</code> (optional)`, { maxlength: UTM_MAX, value: given('utmTerm') })}
      ${input('name', 'Name (optional)', { maxlength: MAX_LINK_NAME_LENGTH, value: given('name') })}
      ${preview === undefined ? '' : html`<p>Preview: <code id="link-preview">${preview}</code></p>`}
      <div>
        <button type="submit" name="action" value="preview" class="secondary">Preview</button>
        <button type="submit" name="action" value="save">Save the link</button>
      </div>
    </form>`;
};

/** The link a form describes, or what is wrong with it (every field at once). */
const linkInputOf = (form: URLSearchParams): LinkInput | string => {
  const problems: string[] = [];
  const destination = parseDestination(field(form, 'destinationUrl'));
  if (typeof destination === 'string') problems.push(`The destination URL ${destination}.`);
  const text = (name: string, required: boolean): string | undefined => {
    const value = field(form, name);
    if (value === '') {
      if (required) problems.push(`${name} is required.`);
      return undefined;
    }
    if ([...value].length > UTM_MAX) problems.push(`${name} must be at most ${UTM_MAX} characters.`);
    return value;
  };
  const [utmSource, utmMedium, utmCampaign, utmContent, utmTerm] = [
    text('utmSource', true),
    text('utmMedium', true),
    text('utmCampaign', true),
    text('utmContent', false),
    text('utmTerm', false),
  ];
  const name = field(form, 'name');
  if ([...name].length > MAX_LINK_NAME_LENGTH) problems.push(`The name must be at most ${MAX_LINK_NAME_LENGTH} characters.`);
  if (problems.length > 0 || typeof destination === 'string') return problems.join(' ');
  return {
    destination,
    utmSource: utmSource!,
    utmMedium: utmMedium!,
    utmCampaign: utmCampaign!,
    ...(utmContent === undefined ? {} : { utmContent }),
    ...(utmTerm === undefined ? {} : { utmTerm }),
    ...(name === '' ? {} : { name }),
    params: [],
  };
};

/** Links (decisions 0013, 0018): the builder with its preview, and the saved links with their clicks. */
export const linksFeature: ConsoleFeature = {
  menu: { path: '/console/links', label: 'Links', access: 'member' },
  register: (r) => {
    const { useCases, publicBaseUrl } = r.deps;

    const linksPage = async (viewer: Viewer, form: Html, message?: string, shown?: Html) => {
      const listed = await useCases.listLinks.execute(viewer.dashboard.id, { page: 1, pageSize: 100 });
      const base = publicBaseUrl();
      return page(
        viewer,
        '/console/links',
        'Links',
        html`${shown}${notice(message)}
          <h2>Build a link</h2>
          ${form}
          <h2>Saved links</h2>
          ${table({
            label: 'Links',
            rows: listed.links.map((link) => ({ link, short: `${base}/l/${link.slug}` })),
            empty: html`<p>No saved links.</p>`,
            columns: [
              { header: 'Name', cell: ({ link }) => link.name ?? '—' },
              {
                header: 'Short link',
                cell: ({ short }) =>
                  html`<a href="${short}" data-short-link>${short}</a>
                    <button type="button" class="secondary" data-copy="${short}">Copy</button>`,
              },
              { header: 'Campaign', cell: ({ link }) => `${link.utmSource} / ${link.utmCampaign}` },
              { header: 'Clicks', count: ({ link }) => link.clicks },
              { header: 'Created', cell: ({ link }) => dateTime(link.createdAt, viewer.dashboard.timezone) },
              {
                header: 'Actions',
                cell: ({ link }) =>
                  postButton(viewer, `/console/links/${link.id}/delete`, 'Delete', 'danger', `Delete the link ${link.name ?? link.slug}`),
              },
            ],
          })}`,
      );
    };

    r.get('/console/links', 'member', async ({ viewer, query }) =>
      show(await linksPage(viewer, linkForm(viewer, new URLSearchParams()), NOTICES[query.get('notice') ?? ''], r.flashes.take(viewer))),
    );
    r.post('/console/links', 'member', async ({ viewer, form }) => {
      const input = linkInputOf(form);
      if (typeof input === 'string') return show(await linksPage(viewer, linkForm(viewer, form, undefined, input)), 400);
      const url = useCases.buildLinkUrl.execute(input);
      if (form.get('action') !== 'save') return show(await linksPage(viewer, linkForm(viewer, form, url)));
      const link = await useCases.createLink.execute(viewer.dashboard.id, input);
      r.flashes.put(viewer, notice(`Saved: ${publicBaseUrl()}/l/${link.slug} leads to ${url}`));
      return redirect('/console/links');
    });
    r.post('/console/links/:id/delete', 'member', async ({ ctx, viewer }) => {
      const deleted = await useCases.deleteLink.execute(viewer.dashboard.id, param(ctx, 'id'));
      if (E.isLeft(deleted)) throw new ConsoleRefusal(404, 'There is no such link in this dashboard.');
      return redirect('/console/links?notice=deleted');
    });
  },
};
