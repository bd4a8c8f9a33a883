import { html, type Fragment } from './html';

/** A secret the service shows this once (a token, a signing secret, an invitation link), with a button to copy it. */
export const secretBlock = (label: string, secret: string): Fragment =>
  html`<div class="notice" role="status">
    <p><strong>${label}</strong> It is shown this once: copy it now.</p>
    <code class="secret" id="shown-secret">${secret}</code>
    <p><button type="button" class="secondary" data-copy="${secret}">Copy</button></p>
  </div>`;
