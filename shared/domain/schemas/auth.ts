import * as z from 'zod';

export const authTokenResponseSchema = z
  .object({
    success: z.object({
      token: z.string().describe('Bearer token: send it as `Authorization: Bearer <token>`.'),
      token_type: z.literal('Bearer'),
      expires_in: z.number().int().describe('Lifetime in seconds.'),
    }),
  })
  .meta({ id: 'AuthTokenResponse' });
