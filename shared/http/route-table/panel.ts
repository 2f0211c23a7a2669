/**
 * The route table's rows of the merchant panel (issue 27): pages in pt-BR under /panel, served by a few
 * functions (`fn`), one per area; each area's rows in its own module, so a function bundles only its own.
 */
import { panelAccessRoutes } from './panel-access';
import { panelHomeRoutes } from './panel-home';
import { panelMoneyRoutes } from './panel-money';
import { panelSettingsRoutes } from './panel-settings';
import { panelWebhookRoutes } from './panel-webhooks';
import { panelRecoveryRoutes } from './panel-recovery';

export { panelAccessRoutes, panelHomeRoutes, panelMoneyRoutes, panelRecoveryRoutes, panelSettingsRoutes, panelWebhookRoutes };

export const panelRoutes = {
  ...panelAccessRoutes,
  ...panelRecoveryRoutes,
  ...panelHomeRoutes,
  ...panelSettingsRoutes,
  ...panelWebhookRoutes,
  ...panelMoneyRoutes,
};
