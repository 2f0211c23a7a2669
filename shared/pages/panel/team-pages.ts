import { escapeHtml } from '../kit/html';
import { PANEL_ROLES, type PanelRole, ROLE_LABELS } from '../../domain/panel/roles';
import { brazilTime, codeInput, csrfField, errorSummary, fieldError, type FieldErrors, layout, type PanelPage, type SignedInChrome } from './page-kit';

/** The merchant panel's team page (issue 27), in pt-BR. */

export type TeamMemberRow = { personId: string; email: string; role: PanelRole; createdAt: string };
/**
 * A pending invite (issue 43): `invite` identifies it to the revoke form (never its link's token);
 * `notDelivered` (issue 44): its mail bounced or its address is suppressed, so nothing reaches it.
 */
export type PendingInviteRow = { invite: string; email: string; role: PanelRole; invitedBy: string; expiresAt: string; notDelivered: boolean };

/** The invite's mail, as its row says it. */
export const INVITE_NOT_DELIVERED = 'não entregue';

const roleOptions = (current: PanelRole | undefined, allowed: readonly PanelRole[]) =>
  allowed.map((role) => `<option value="${role}"${role === current ? ' selected' : ''}>${escapeHtml(ROLE_LABELS[role])}</option>`).join('');

export function teamPage(
  view: { members: readonly TeamMemberRow[]; invites: readonly PendingInviteRow[]; mayManage: boolean; actorRole: PanelRole; selfId: string },
  chrome: SignedInChrome,
  form: { message?: string; errors?: FieldErrors; invited?: { email: string; role: PanelRole; inviteUrl: string; expiresAt: string }; notice?: string } = {},
): PanelPage {
  // Only an owner gives or touches the owner role (shared/domain/panel/roles.ts).
  const grantable = view.actorRole === 'owner' ? PANEL_ROLES : PANEL_ROLES.filter((r) => r !== 'owner');
  const rows = view.members
    .map((m) => {
      const touchable = view.mayManage && m.personId !== view.selfId && (view.actorRole === 'owner' || m.role !== 'owner');
      const actions = touchable
        ? `<form method="post" action="/panel/equipe/papel" class="inline">${csrfField(chrome.csrfToken)}<input type="hidden" name="person" value="${escapeHtml(m.personId)}">
<label for="role-${escapeHtml(m.personId)}">Novo papel de ${escapeHtml(m.email)}</label>
<select id="role-${escapeHtml(m.personId)}" name="role">${roleOptions(m.role, grantable)}</select>
<label for="code-role-${escapeHtml(m.personId)}">Código de verificação</label>
<input id="code-role-${escapeHtml(m.personId)}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="7" required>
<button type="submit">Mudar papel</button></form>
<form method="post" action="/panel/equipe/remover">${csrfField(chrome.csrfToken)}<input type="hidden" name="person" value="${escapeHtml(m.personId)}">
<label for="code-remove-${escapeHtml(m.personId)}">Código de verificação para remover ${escapeHtml(m.email)}</label>
<input id="code-remove-${escapeHtml(m.personId)}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="7" required>
<button type="submit">Remover da equipe</button></form>`
        : '';
      return `<tr data-person="${escapeHtml(m.personId)}" data-role="${m.role}"><td>${escapeHtml(m.email)}${m.personId === view.selfId ? ' (você)' : ''}</td><td>${escapeHtml(ROLE_LABELS[m.role])}</td><td>${brazilTime(m.createdAt)}</td><td>${actions}</td></tr>`;
    })
    .join('\n');
  const inviteRows = view.invites
    .map((i, n) => {
      const revocable = view.mayManage && (view.actorRole === 'owner' || i.role !== 'owner');
      const revoke = revocable
        ? `<form method="post" action="/panel/equipe/remover">${csrfField(chrome.csrfToken)}<input type="hidden" name="invite" value="${escapeHtml(i.invite)}">
<label for="code-revoke-${n}">Código de verificação para revogar o convite de ${escapeHtml(i.email)}</label>
<input id="code-revoke-${n}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="7" required>
<button type="submit">Revogar convite</button></form>`
        : '';
      // Issue 44: an address that hard-bounced or complained gets no mail; the person who invites learns it here.
      const mail = i.notDelivered
        ? `<br><strong data-mail-status="not-delivered">E-mail ${INVITE_NOT_DELIVERED}</strong>: o endereço recusou o e-mail ou o marcou como spam. Confira o endereço, ou revogue e convide outro.`
        : '';
      return `<tr data-invite="${escapeHtml(i.invite)}" data-role="${i.role}"${i.notDelivered ? ' data-not-delivered' : ''}><td>${escapeHtml(i.email)}${mail}</td><td>${escapeHtml(ROLE_LABELS[i.role])}</td><td data-invited-by>${escapeHtml(i.invitedBy)}</td><td>${brazilTime(i.expiresAt)}</td><td>${revoke}</td></tr>`;
    })
    .join('\n');
  const pending =
    view.invites.length > 0
      ? `<div class="box wide">
<div class="table-wrap" tabindex="0" role="region" aria-label="Convites pendentes"><table id="invites">
<caption>Convites pendentes: cada link vale uma vez, até expirar ou ser revogado</caption>
<thead><tr><th scope="col">E-mail</th><th scope="col">Papel</th><th scope="col">Enviado por</th><th scope="col">Vale até</th><th scope="col">Ações</th></tr></thead>
<tbody>
${inviteRows}
</tbody>
</table></div>
</div>
`
      : '';
  const email = fieldError('invite-email', form.errors, 'email');
  const invite = view.mayManage
    ? `<div class="box" id="invite">
<h2>Convidar uma pessoa</h2>
<form method="post" action="/panel/equipe" novalidate>
${csrfField(chrome.csrfToken)}
<label for="invite-email">E-mail</label>
<input id="invite-email" name="email" type="email" autocomplete="off" maxlength="254" required${email.attrs}>${email.html}
<label for="invite-role">Papel</label>
<select id="invite-role" name="role">${roleOptions('viewer', grantable)}</select>
${codeInput(form.errors)}
<button type="submit">Enviar convite</button>
</form>
</div>`
    : '';
  const invited = form.invited
    ? `<div class="box wide" role="status" id="invited"><p>Convite enviado para ${escapeHtml(form.invited.email)} (${escapeHtml(ROLE_LABELS[form.invited.role])}). O link vale uma vez, até ${brazilTime(form.invited.expiresAt)}:</p>
<p class="secret" id="invite-url">${escapeHtml(form.invited.inviteUrl)}</p></div>`
    : '';
  return layout(
    'Equipe',
    `<h1>Equipe</h1>
${invited}${form.notice ? `<p role="status" id="notice">${escapeHtml(form.notice)}</p>` : ''}
${errorSummary(form.message, form.errors)}
<div class="box wide">
<div class="table-wrap" tabindex="0" role="region" aria-label="Equipe"><table id="team">
<caption>Pessoas com acesso ao painel desta conta</caption>
<thead><tr><th scope="col">E-mail</th><th scope="col">Papel</th><th scope="col">Desde</th><th scope="col">Ações</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
</div>
${pending}${invite}`,
    chrome,
  );
}
