/** CDK entry point (cdk.json: npx tsx infra/app.ts). Pass `-c nag=false` to skip the cdk-nag checks. */
import { buildApp } from './stack';

const { app } = buildApp();
app.synth();
