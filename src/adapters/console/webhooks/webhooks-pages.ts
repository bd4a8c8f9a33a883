import * as E from 'fp-ts/Either';
import { SCOPES, type Scope } from '../../../domain/scope';
import { isTimeZone, TIME_ZONES } from '../../../domain/time-zone';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from '../../../domain/webhook';
import { ConsoleRefusal, field, redirect, show, type ConsoleRouter, type PostRequest, param } from '../kit/router';
import { count, dateTime } from '../kit/format';
import { html, type Fragment } from '../kit/html';
import { csrfField, notice, page, problem, type Viewer } from '../kit/layout';

const NOTICES: Readonly<Record<string, string>> = {
  revoked: 'The token was revoked: requests with it are refused from now on.',
  enabled: 'The endpoint is enabled.',
  disabled: 'The endpoint is disabled: nothing is sent to it.',
  deleted: 'The endpoint was deleted with its delivery log.',
  tested: 'A webhook.test event is on its way; its attempt appears in the log below.',
  retried: 'One more attempt is on its way.',
  saved: 'The settings were saved.',
};

export const secretBlock = (label: string, secret: string): Fragment =>
  html`<div class="notice" role="status">
    <p><strong>${label}</strong> It is shown this once: copy it now.</p>
    <code class="secret" id="shown-secret">${secret}</code>
    <p><button type="button" class="secondary" data-copy="${secret}">Copy</button></p>
  </div>`;

const webhookError = (tag: string): string =>
  ({
    WebhookLimitReached: 'This dashboard has its 20 endpoints already.',
    WebhookNotFound: 'There is no such endpoint in this dashboard.',
    WebhookDisabled: 'The endpoint is disabled: enable it first.',
    DeliveryNotFound: 'There is no such delivery.',
  })[tag] ?? 'That did not work.';

export const ownerPages = (r: ConsoleRouter): void => {
  const { useCases } = r.deps;

  // Tokens (DECISIONS D17): created with scopes and an expiry, shown once, revoked.
  const tokensPage = async (viewer: Viewer, top: Fragment = '') => {
    const tokens = await useCases.listTokens.execute(viewer.dashboard.id);
    if (E.isLeft(tokens)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
    const zone = viewer.dashboard.timezone;
    return page(
      viewer,
      '/console/tokens',
      'Tokens',
      html`${top}
        <h2>Create a token</h2>
        <form class="stack" method="post" action="/console/tokens">
          ${csrfField(viewer)}
          <div><label for="name">Name</label><input id="name" name="name" maxlength="200" required /></div>
          <fieldset>
            <legend>Scopes (a checkout needs only orders:write)</legend>
            ${SCOPES.map(
              (s) =>
                html`<div>
                  <input type="checkbox" id="scope-${s.replace(':', '-')}" name="scope" value="${s}" />
                  <label for="scope-${s.replace(':', '-')}" style="display:inline">${s}</label>
                </div>`,
            )}
          </fieldset>
          <div><label for="expiresOn">Expires on (optional)</label><input id="expiresOn" name="expiresOn" type="date" /></div>
          <div><button type="submit">Create the token</button></div>
        </form>
        <h2>Tokens</h2>
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              ${tokens.right.map(
                (t) =>
                  html`<tr data-token="${t.id}">
                    <td>${t.name ?? '—'}</td>
                    <td>${t.scopes.join(', ')}</td>
                    <td>${dateTime(t.createdAt, zone)}</td>
                    <td>${t.lastUsedAt === undefined ? 'never' : dateTime(t.lastUsedAt, zone)}</td>
                    <td>${t.expiresAt === undefined ? 'never' : dateTime(t.expiresAt, zone)}</td>
                    <td>
                      ${t.revokedAt === undefined ? html`<form class="inline" method="post" action="/console/tokens/${t.id}/revoke">${csrfField(viewer)}<button type="submit" class="danger" aria-label="Revoke the token ${t.name ?? t.id}">Revoke</button></form>` : html`revoked ${dateTime(t.revokedAt, zone)}`}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`,
    );
  };
  r.get('/console/tokens', 'owner', async ({ viewer, query }) =>
    show(await tokensPage(viewer, notice(NOTICES[query.get('notice') ?? '']))),
  );
  r.post('/console/tokens', 'owner', async ({ viewer, form }: PostRequest) => {
    const name = field(form, 'name');
    const scopes = form.getAll('scope').filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
    const expiresOn = field(form, 'expiresOn');
    const problems: string[] = [];
    if (name === '' || name.length > 200) problems.push('A token needs a name of at most 200 characters.');
    if (scopes.length === 0) problems.push('Choose at least one scope.');
    const expiresAt = expiresOn === '' ? undefined : new Date(`${expiresOn}T00:00:00Z`);
    if (expiresAt !== undefined && (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now()))
      problems.push('The expiry must be a day in the future.');
    if (problems.length > 0) return show(await tokensPage(viewer, problem(problems.join(' '))), 400);
    const issued = await useCases.createToken.execute(viewer.dashboard.id, name, {
      scopes,
      ...(expiresAt === undefined ? {} : { expiresAt }),
    });
    if (E.isLeft(issued)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
    return show(await tokensPage(viewer, secretBlock(`The token “${name}”.`, issued.right.plain)));
  });
  r.post('/console/tokens/:id/revoke', 'owner', async ({ ctx, viewer }) => {
    const id = param(ctx, 'id');
    const tokens = await useCases.listTokens.execute(viewer.dashboard.id);
    // Only a token of this dashboard: the id alone must not reach another's.
    if (E.isLeft(tokens) || !tokens.right.some((t) => t.id === id))
      throw new ConsoleRefusal(404, 'There is no such token in this dashboard.');
    await useCases.revokeToken.execute(id);
    return redirect('/console/tokens?notice=revoked');
  });

  // Webhooks (DECISIONS D12): endpoints, the secret once, the delivery log, retry, test, rotate.
  const eventBoxes = (chosen: readonly WebhookEventType[]) =>
    html`<fieldset>
      <legend>Events (none checked: every event)</legend>
      ${WEBHOOK_EVENT_TYPES.map(
        (e) =>
          html`<div>
            <input
              type="checkbox"
              id="event-${e.replace('.', '-')}"
              name="event"
              value="${e}"
              ${chosen.includes(e) ? html` checked` : ''}
            />
            <label for="event-${e.replace('.', '-')}" style="display:inline">${e}</label>
          </div>`,
      )}
    </fieldset>`;
  const webhooksPage = async (viewer: Viewer, top: Fragment = '') => {
    const endpoints = await useCases.listWebhooks.execute(viewer.dashboard.id);
    return page(
      viewer,
      '/console/webhooks',
      'Webhooks',
      html`${top}
        <h2>Add an endpoint</h2>
        <form class="stack" method="post" action="/console/webhooks">
          ${csrfField(viewer)}
          <div><label for="url">URL</label><input id="url" name="url" type="url" required maxlength="2048" /></div>
          <div><label for="description">Description (optional)</label><input id="description" name="description" maxlength="500" /></div>
          ${eventBoxes([])}
          <div><button type="submit">Add the endpoint</button></div>
        </form>
        <h2>Endpoints</h2>
        ${
          endpoints.length === 0
            ? html`<p>No endpoints.</p>`
            : html`<div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">URL</th>
                      <th scope="col">Events</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${endpoints.map(
                      (w) =>
                        html`<tr>
                          <td><a href="/console/webhooks/${w.id}">${w.url}</a></td>
                          <td>${w.events.length === 0 ? 'every event' : w.events.join(', ')}</td>
                          <td>${w.enabled ? 'enabled' : `disabled${w.disabledReason === undefined ? '' : ` (${w.disabledReason})`}`}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
        }`,
    );
  };
  r.get('/console/webhooks', 'owner', async ({ viewer, query }) =>
    show(await webhooksPage(viewer, notice(NOTICES[query.get('notice') ?? '']))),
  );
  r.post('/console/webhooks', 'owner', async ({ viewer, form }) => {
    const url = field(form, 'url');
    const description = field(form, 'description');
    const events = form.getAll('event').filter((e): e is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
    if (url === '' || url.length > 2048 || description.length > 500)
      return show(
        await webhooksPage(viewer, problem('An endpoint needs a URL (at most 2,048 characters) and a description of at most 500.')),
        400,
      );
    const made = await useCases.createWebhook.execute(viewer.dashboard.id, { url, events, ...(description === '' ? {} : { description }) });
    if (E.isLeft(made)) {
      const why =
        made.left._tag === 'WebhookUrlNotAllowed' ? `That URL is not allowed. ${made.left.reason}.` : webhookError(made.left._tag);
      return show(await webhooksPage(viewer, problem(why)), 400);
    }
    return show(await webhooksPage(viewer, secretBlock(`The signing secret of ${made.right.url}.`, made.right.secret)));
  });

  const endpointPage = async (viewer: Viewer, endpoint: WebhookEndpoint, top: Fragment = '') => {
    const zone = viewer.dashboard.timezone;
    const log = await useCases.listDeliveries.execute(viewer.dashboard.id, endpoint.id, { page: 1, pageSize: 50 });
    const deliveries = E.isRight(log) ? log.right.deliveries : [];
    const action = (path: string, label: string, kind = 'secondary') =>
      html`<form class="inline" method="post" action="/console/webhooks/${endpoint.id}/${path}">
        ${csrfField(viewer)}<button type="submit" class="${kind}">${label}</button>
      </form>`;
    return page(
      viewer,
      '/console/webhooks',
      `Endpoint ${endpoint.url}`,
      html`${top}
        <p>
          ${endpoint.description ?? ''} · ${endpoint.events.length === 0 ? 'every event' : endpoint.events.join(', ')} ·
          ${endpoint.enabled ? 'enabled' : 'disabled'}
        </p>
        <p>
          ${action('test', 'Send a test event')} ${endpoint.enabled ? action('disable', 'Disable') : action('enable', 'Enable')}
          ${action('rotate', 'Rotate the secret')} ${action('delete', 'Delete', 'danger')}
        </p>
        <h2>Delivery log</h2>
        ${
          deliveries.length === 0
            ? html`<p>No deliveries yet.</p>`
            : html`<div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Created</th>
                      <th scope="col">Status</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">Retry</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${deliveries.map(
                      (d) =>
                        html`<tr data-delivery="${d.id}">
                          <td>${d.eventType}</td>
                          <td>${dateTime(d.createdAt, zone)}</td>
                          <td>${d.status}</td>
                          <td>
                            <ul>
                              ${d.attempts.map((a) => html`<li>${dateTime(a.at, zone)}: ${a.responseStatus === undefined ? (a.error ?? 'no answer') : `HTTP ${a.responseStatus}`} (${count(a.durationMs)} ms)</li>`)}
                            </ul>
                          </td>
                          <td>
                            <form class="inline" method="post" action="/console/webhooks/${endpoint.id}/deliveries/${d.id}/retry">
                              ${csrfField(viewer)}<button type="submit" class="secondary">Retry</button>
                            </form>
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
        }
        <p><a href="/console/webhooks">All endpoints</a></p>`,
    );
  };
  const endpointOf = async (viewer: Viewer, id: string): Promise<WebhookEndpoint> => {
    const found = await useCases.getWebhook.execute(viewer.dashboard.id, id);
    if (E.isLeft(found)) throw new ConsoleRefusal(404, webhookError('WebhookNotFound'));
    return found.right;
  };
  r.get('/console/webhooks/:id', 'owner', async ({ ctx, viewer, query }) =>
    show(await endpointPage(viewer, await endpointOf(viewer, param(ctx, 'id')), notice(NOTICES[query.get('notice') ?? '']))),
  );
  const endpointAction = (
    path: string,
    act: (viewer: Viewer, id: string, deliveryId: string) => Promise<E.Either<{ _tag: string }, unknown>>,
    done: string,
  ) =>
    r.post(`/console/webhooks/:id/${path}`, 'owner', async ({ ctx, viewer }) => {
      const id = param(ctx, 'id');
      const result = await act(viewer, id, param(ctx, 'deliveryId'));
      if (E.isLeft(result)) throw new ConsoleRefusal(result.left._tag.endsWith('NotFound') ? 404 : 409, webhookError(result.left._tag));
      return redirect(done === 'deleted' ? '/console/webhooks?notice=deleted' : `/console/webhooks/${id}?notice=${done}`);
    });
  endpointAction('test', (v, id) => useCases.sendTestWebhook.execute(v.dashboard.id, id), 'tested');
  endpointAction('enable', (v, id) => useCases.updateWebhook.execute(v.dashboard.id, id, { enabled: true }), 'enabled');
  endpointAction('disable', (v, id) => useCases.updateWebhook.execute(v.dashboard.id, id, { enabled: false }), 'disabled');
  endpointAction('delete', (v, id) => useCases.deleteWebhook.execute(v.dashboard.id, id), 'deleted');
  endpointAction(
    'deliveries/:deliveryId/retry',
    (v, id, deliveryId) => useCases.retryDelivery.execute(v.dashboard.id, id, deliveryId),
    'retried',
  );
  r.post('/console/webhooks/:id/rotate', 'owner', async ({ ctx, viewer }) => {
    const rotated = await useCases.rotateWebhookSecret.execute(viewer.dashboard.id, param(ctx, 'id'));
    if (E.isLeft(rotated)) throw new ConsoleRefusal(404, webhookError(rotated.left._tag));
    return show(
      await endpointPage(
        viewer,
        rotated.right,
        secretBlock('The new signing secret; the previous one keeps signing beside it for 24 hours.', rotated.right.secret),
      ),
    );
  });

  // Settings: the dashboard's name and time zone.
  const settingsPage = (viewer: Viewer, top: Fragment = '') =>
    page(
      viewer,
      '/console/settings',
      'Settings',
      html`${top}
        <form class="stack" method="post" action="/console/settings">
          ${csrfField(viewer)}
          <div>
            <label for="name">Dashboard name</label
            ><input id="name" name="name" required maxlength="200" value="${viewer.dashboard.name}" />
          </div>
          <div>
            <label for="timezone">Time zone of reports and spend dates</label
            ><select id="timezone" name="timezone">
              ${TIME_ZONES.map((z) => html`<option value="${z}" ${z === viewer.dashboard.timezone ? html` selected` : ''}>${z}</option>`)}
            </select>
          </div>
          <div><button type="submit">Save</button></div>
        </form>`,
    );
  r.get('/console/settings', 'owner', async ({ viewer, query }) => show(settingsPage(viewer, notice(NOTICES[query.get('notice') ?? '']))));
  r.post('/console/settings', 'owner', async ({ viewer, form }) => {
    const name = field(form, 'name');
    const timezone = field(form, 'timezone');
    if (name === '' || name.length > 200 || !isTimeZone(timezone))
      return show(settingsPage(viewer, problem('A name of 1 to 200 characters and a time zone of the list are needed.')), 400);
    const updated = await useCases.updateDashboard.execute(viewer.dashboard.id, { name, timezone });
    if (E.isLeft(updated)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
    return redirect('/console/settings?notice=saved');
  });
};
