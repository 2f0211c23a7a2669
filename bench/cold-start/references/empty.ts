/** The cold-start bench's lower reference: a handler that imports nothing. */
export const handler = async (): Promise<{ statusCode: number }> => ({ statusCode: 204 });
