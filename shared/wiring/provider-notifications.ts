/**
 * The simulated provider's signed notification as the gateway receives it (POST /provider/{name}/notifications):
 * its body's schema lives with the simulated provider (shared/adapters/providers/simulated-notification.ts);
 * the route table takes it from here, so that shared/http/ names no adapter.
 */
export { simulatedNotificationSchema } from '../adapters/providers/simulated-notification';
