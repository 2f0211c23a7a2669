/** Names the local stack gives its resources; the operator CLI finds them by these. */
export const LOCAL_TABLE = 'payment-gateway-local';
export const LOCAL_MASTER_SECRET = 'payment-gateway/local/master-key';
export const LOCAL_PROVIDER_SECRET = 'payment-gateway/local/provider-credentials';
/** The panel mail's sender on the local stack (MAIL_FROM unless set); the stack's IAM policies are synthesized with its address as `mailFrom`. */
export const LOCAL_MAIL_FROM = 'Painel do gateway <painel@gateway.localhost>';
/**
 * The SES configuration set the local mail is sent through (MAIL_CONFIGURATION_SET), as the stack's
 * is named locally (infra/local/iam/synthesize.ts): the SES stand-in publishes its bounce and complaint
 * events to the mail feedback queue (issue 44).
 */
export const LOCAL_MAIL_CONFIGURATION_SET = 'payment-gateway-local-mail';

/**
 * The API Pix secret's name as the local IAM evaluation synthesizes it (infra/local/iam/synthesize.ts):
 * the stack grants `<name>-??????` (a secret's ARN ends in six random characters), so a local secret
 * named `<name>-` + six characters is the one the Pix functions may read (test/support/apipix-env.ts).
 */
export const LOCAL_APIPIX_SECRET_NAME = 'apipix-local';
