/**
 * The merchant panel's mail (issue 27): what is sent and its text (pt-BR, plain text). Pure: values in,
 * values out. A message is queued in the transaction of what it tells (an invite, a reset link, a
 * sign-in) and sent afterwards by the mail worker (Amazon SES in AWS, a loopback stand-in locally).
 */
import { brazilTime } from '../brazil-time';
import { ROLE_LABELS, type PanelRole } from './roles';

export type MailKind = 'invite' | 'password_reset' | 'sign_in_notice';

/** A message to send: its recipient and text (the text may hold a link that works once: stored sealed). */
export type OutgoingMail = { id: string; kind: MailKind; to: string; subject: string; text: string; createdAt: string };

export type MailContent = Pick<OutgoingMail, 'kind' | 'to' | 'subject' | 'text'>;

const SIGNATURE = '\n\n— Painel do gateway de pagamentos\nEste e-mail foi enviado automaticamente; não responda.';

export function inviteMail(input: { to: string; accountId: string; role: PanelRole; link: string; expiresAt: string }): MailContent {
  return {
    kind: 'invite',
    to: input.to,
    subject: 'Convite para o painel do gateway de pagamentos',
    text:
      `Olá,\n\nVocê foi convidado(a) para o painel da conta ${input.accountId} com o papel ${ROLE_LABELS[input.role]}.\n\n` +
      `Para aceitar, abra o link abaixo, crie uma senha e cadastre um aplicativo autenticador:\n${input.link}\n\n` +
      `O link funciona uma vez, até ${brazilTime(input.expiresAt)} (horário de Brasília). Se você não esperava este convite, ignore este e-mail.` +
      SIGNATURE,
  };
}

export function passwordResetMail(input: { to: string; link: string; expiresAt: string }): MailContent {
  return {
    kind: 'password_reset',
    to: input.to,
    subject: 'Redefinição de senha do painel',
    text:
      `Olá,\n\nRecebemos um pedido para redefinir a senha do painel deste e-mail.\n\n` +
      `Para escolher uma senha nova, abra o link abaixo (ele pede também um código do seu aplicativo autenticador):\n${input.link}\n\n` +
      `O link funciona uma vez, até ${brazilTime(input.expiresAt)} (horário de Brasília). Se você não pediu, ignore este e-mail: sua senha continua a mesma.` +
      SIGNATURE,
  };
}

export function signInNoticeMail(input: { to: string; at: string; ip: string; userAgent: string }): MailContent {
  // The browser's own words, printable ASCII only and cut short (it is the caller's text, not ours).
  const printable = input.userAgent.replace(/[^\x20-\x7E]/g, '');
  const browser = printable.length > 120 ? `${printable.slice(0, 120)}…` : printable;
  return {
    kind: 'sign_in_notice',
    to: input.to,
    subject: 'Novo acesso ao painel',
    text:
      `Olá,\n\nHouve um acesso ao painel com este e-mail em ${brazilTime(input.at)} (horário de Brasília), ` +
      `a partir do endereço ${input.ip}${browser ? ` (${browser})` : ''}.\n\n` +
      `Se foi você, nada a fazer. Se não foi, entre no painel, troque a senha e use "Sair de todas as sessões" em Segurança, ou fale com o suporte.` +
      SIGNATURE,
  };
}
