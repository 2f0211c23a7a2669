/** Route policies several areas share (the route table's building blocks). */
/** An account's read-only call: Bearer token, counted against the account's 60/min. */
export const bearerRead = { auth: 'bearer', rateLimit: 'account', access: 'read', idempotency: 'none' } as const;
/** The hosted checkout's public routes: the payer's browser, counted per IP (RATE_LIMIT_CHECKOUT_PER_MINUTE). */
export const payerBrowser = { auth: 'none', rateLimit: 'checkout', idempotency: 'none', usesMasterKey: true, tag: 'Hosted checkout' } as const;
export const HTML = 'text/html; charset=utf-8';
/** An account's writing call: Bearer token, counted against the account's 60/min; the route sets its idempotency. */
export const bearerWrite = { auth: 'bearer', rateLimit: 'account', access: 'write' } as const;
