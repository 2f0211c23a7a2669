import { describe, expect, it } from 'vitest';
import { checkoutPagePath, checkoutPageToken, checkoutPageTokenMatches } from '../../../../shared/http/checkout/link';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const checkout = { reference: 'CHK-ABCDEFGH' };

describe("the checkout page's link", () => {
  it('a page token opens only its own checkout, under the service key', () => {
    const token = checkoutPageToken(checkout.reference, KEY);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(checkoutPageTokenMatches(checkout.reference, token, KEY)).toBe(true);
    expect(checkoutPageTokenMatches('CHK-ABCDEFGJ', token, KEY)).toBe(false);
    expect(checkoutPageTokenMatches(checkout.reference, checkoutPageToken(checkout.reference, OTHER_KEY), KEY)).toBe(false);
    expect(checkoutPageTokenMatches(checkout.reference, `${token.slice(0, -1)}x`, KEY)).toBe(token.endsWith('x'));
    expect(checkoutPageTokenMatches('INV-ABCDEF', checkoutPageToken('INV-ABCDEF', KEY), KEY)).toBe(false);
    expect(checkoutPagePath(checkout.reference, KEY)).toBe(`/checkout/${checkout.reference}/${token}`);
  });
});
