import { httpHandler } from '../../shared/http/pipeline';
import { STATES, stateView } from '../../shared/domain/reference/states';
import { referenceRoutes as routes } from '../../shared/http/route-table/reference';

const body = { states: STATES.map(stateView) };

/** GET /api/state/all: the 27 Brazilian federative units (UF), with IBGE codes and area codes. */
export const handler = httpHandler(routes.listStates, async () => ({ status: 200, body }));
