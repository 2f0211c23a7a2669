import type { PanelSessionPorts } from './access-ports';
import { actingPerson } from './acting';
import type { Invoice } from '../../domain/invoice';
import type { PanelSession } from '../../domain/panel/session';
import type { StoredEvent, WebhookDelivery } from '../../domain/webhooks';
import { NotFoundError } from '../../domain/errors';
import type { InvoiceListQuery, InvoiceReader } from '../../ports/invoices';

/**
 * The merchant panel's invoices (issue 27): the list through GET /api/invoices' reader and filters, and
 * one invoice with the webhook events its changes recorded and each event's delivery.
 */
export type PanelInvoicePorts = PanelSessionPorts & {
  invoices: Pick<InvoiceReader, 'list' | 'byReference'>;
  events: { event: (eventId: string) => Promise<StoredEvent | undefined>; delivery: (eventId: string) => Promise<WebhookDelivery | undefined> };
};

export async function invoicesView(ports: PanelInvoicePorts, session: PanelSession, query: InvoiceListQuery): Promise<Invoice[]> {
  await actingPerson(ports, session, 'read');
  return ports.invoices.list(session.accountId, query);
}

/** An event of an invoice as its page shows it: what happened, when, and how its delivery to the webhook went (none: no webhook then). */
export type InvoiceEventRow = { eventId: string; type: string; created: number | undefined; delivery?: WebhookDelivery };

/** One invoice of the session's account with its events, oldest first; unknown or another account's: 404, as the API answers. */
export async function invoiceDetail(
  ports: PanelInvoicePorts,
  session: PanelSession,
  reference: string,
): Promise<{ invoice: Invoice; events: InvoiceEventRow[] }> {
  await actingPerson(ports, session, 'read');
  const invoice = await ports.invoices.byReference(reference);
  if (!invoice || invoice.accountId !== session.accountId) throw new NotFoundError('Fatura não encontrada.');
  const events = await Promise.all(
    (invoice.eventIds ?? []).map(async (eventId): Promise<InvoiceEventRow | undefined> => {
      const [event, delivery] = await Promise.all([ports.events.event(eventId), ports.events.delivery(eventId)]);
      if (!event || event.accountId !== session.accountId) return undefined;
      return { eventId, type: event.eventType, created: createdOf(event.body), ...(delivery ? { delivery } : {}) };
    }),
  );
  return { invoice, events: events.filter((row): row is InvoiceEventRow => row !== undefined) };
}

function createdOf(body: string): number | undefined {
  try {
    const created = (JSON.parse(body) as { created?: unknown }).created;
    return typeof created === 'number' ? created : undefined;
  } catch {
    return undefined;
  }
}
