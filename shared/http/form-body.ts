import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Whether a Content-Type header names an HTML form post (application/x-www-form-urlencoded, any parameters). */
export function isFormPost(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

export function formBody(event: APIGatewayProxyEventV2): string {
  const raw = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
}
