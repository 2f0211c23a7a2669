import { type CepAddress, type CepLookup, CepUnavailableError } from '../../ports/cep';

/** The HTTP client the adapter uses (Node's fetch; tests give their own). */
export type Fetch = (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<Response>;

/** What one public service said: the address, "no such CEP", or a failure (thrown). */
type Answer = { kind: 'found'; address: CepAddress } | { kind: 'not_found' };

type Service = { name: string; url: (cep: string) => string; read: (status: number, body: unknown, cep: string) => Answer };

type Fields = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

function found(cep: string, fields: { state: unknown; city: unknown; district: unknown; street: unknown }): Answer {
  const address = { zipcode: cep, state: text(fields.state), city: text(fields.city), district: text(fields.district), street: text(fields.street) };
  if (!/^[A-Z]{2}$/.test(address.state) || address.city === '') throw new Error('an answer without state or city');
  return { kind: 'found', address };
}

/**
 * The public CEP services, asked at once (the first address wins): BrasilAPI (404 for an unknown
 * CEP), ViaCEP (200 `{"erro": true}`) and WideNet's apicep (`{"status": 404}`).
 */
export const CEP_SERVICES: readonly Service[] = [
  {
    name: 'BrasilAPI',
    url: (cep) => `https://brasilapi.com.br/api/cep/v1/${cep}`,
    read: (status, body, cep) => {
      if (status === 404) return { kind: 'not_found' };
      if (status !== 200) throw new Error(`HTTP ${status}`);
      const b = body as Fields;
      return found(cep, { state: b.state, city: b.city, district: b.neighborhood, street: b.street });
    },
  },
  {
    name: 'ViaCEP',
    url: (cep) => `https://viacep.com.br/ws/${cep}/json/`,
    read: (status, body, cep) => {
      if (status !== 200) throw new Error(`HTTP ${status}`);
      const b = body as Fields;
      if (b.erro === true || b.erro === 'true') return { kind: 'not_found' };
      return found(cep, { state: b.uf, city: b.localidade, district: b.bairro, street: b.logradouro });
    },
  },
  {
    name: 'WideNet',
    url: (cep) => `https://cdn.apicep.com/file/apicep/${cep.slice(0, 5)}-${cep.slice(5)}.json`,
    read: (status, body, cep) => {
      const b = body as Fields;
      if (status === 404 || b.status === 404 || b.ok === false) return { kind: 'not_found' };
      if (status !== 200) throw new Error(`HTTP ${status}`);
      return found(cep, { state: b.state, city: b.city, district: b.district, street: b.address });
    },
  },
];

async function ask(service: Service, cep: string, fetcher: Fetch, signal: AbortSignal): Promise<Answer> {
  try {
    const response = await fetcher(service.url(cep), { signal, headers: { accept: 'application/json' } });
    const body: unknown = await response.json().catch(() => ({}));
    return service.read(response.status, body, cep);
  } catch (err) {
    throw new Error(`${service.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The production adapter: the public CEP services through fetch, all at once, under one time limit.
 * The first address wins (the others are cancelled); the CEP is unknown (null) only when every
 * service said so; any other mix (a failure, a timeout) is CepUnavailableError.
 */
export function publicCepLookup(timeoutMs: number, fetcher: Fetch = fetch, services: readonly Service[] = CEP_SERVICES): CepLookup {
  return {
    async lookup(cep): Promise<CepAddress | null> {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      try {
        const answers = services.map((service) => ask(service, cep, fetcher, controller.signal));
        const first = await Promise.any(
          answers.map((answer) => answer.then((a) => (a.kind === 'found' ? a.address : Promise.reject(new Error('not found'))))),
        ).catch(() => undefined);
        if (first) return first;
        const settled = await Promise.allSettled(answers);
        if (settled.every((s) => s.status === 'fulfilled' && s.value.kind === 'not_found')) return null;
        const reasons = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason instanceof Error ? s.reason.message : String(s.reason)] : []));
        throw new CepUnavailableError(reasons.join('; ') || 'no service answered');
      } finally {
        clearTimeout(timer);
        controller.abort();
      }
    },
  };
}
