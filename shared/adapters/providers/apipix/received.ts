import * as z from 'zod';
import { parseAmountToCents } from '../../../domain/money';
import type { ReceivedPix, ReceivedPixPage, StatementWindow } from '../../../domain/pix-statement';
import { pixSchema } from './cob';

/**
 * The Pix received (API Pix GET /pix, scope pix.read; bacen/pix-api openapi.yaml "Consultar Pix
 * recebidos"), as pure functions: the query of one page and the page the PSP answers. Values in,
 * values out: no I/O.
 */

/** Items a page asks for (paginacao.itensPorPagina; the PSP may answer fewer). */
export const RECEIVED_PAGE_SIZE = 100;

/** The path and query of one page: `inicio` and `fim` in RFC 3339, pages from 0. */
export function receivedPixPath(window: StatementWindow, page: number): string {
  const query = new URLSearchParams({
    inicio: window.from.toISOString(),
    fim: window.to.toISOString(),
    'paginacao.paginaAtual': String(page),
    'paginacao.itensPorPagina': String(RECEIVED_PAGE_SIZE),
  });
  return `/pix?${query.toString()}`;
}

/** PixConsultados: the parameters echoed with their paging, and the Pix of the page (only the fields read are checked). */
const receivedSchema = z.object({
  parametros: z.object({
    paginacao: z.object({
      paginaAtual: z.number().int().min(0),
      itensPorPagina: z.number().int().min(1),
      quantidadeDePaginas: z.number().int().min(0),
      quantidadeTotalDeItens: z.number().int().min(0),
    }),
  }),
  pix: z.array(pixSchema).max(1000).optional(),
});

/**
 * One page of received Pix from the PSP's answer; undefined when the body is not PixConsultados, is not
 * the page asked (a PSP that ignored paginaAtual would have the other pages skipped), or a Pix has no valid time.
 */
export function receivedPixPageOf(body: unknown, page: number): ReceivedPixPage | undefined {
  const parsed = receivedSchema.safeParse(body);
  if (!parsed.success || parsed.data.parametros.paginacao.paginaAtual !== page) return undefined;
  const payments: ReceivedPix[] = [];
  for (const pix of parsed.data.pix ?? []) {
    const paidMs = Date.parse(pix.horario);
    if (Number.isNaN(paidMs)) return undefined;
    payments.push({
      endToEndId: pix.endToEndId,
      ...(pix.txid ? { txid: pix.txid } : {}),
      amountCents: parseAmountToCents(pix.valor),
      paidAt: new Date(paidMs),
    });
  }
  return { payments, pages: parsed.data.parametros.paginacao.quantidadeDePaginas };
}
