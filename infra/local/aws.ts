/** Credentials and region for the loopback emulators: they accept any, AWS is never reached. */
export function localAwsConfig() {
  return { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
}
