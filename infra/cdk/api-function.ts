import { Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type ICommandHooks, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_FUNCTION_TIMEOUT_MS } from '../../shared/domain/time-budgets';
import { aliasArgs, besideBundleCommands, ESBUILD, ESM_REQUIRE_BANNER, LAMBDA_BUNDLE_DEFINES, LAMBDA_BUNDLE_EXTERNALS } from './bundling';
import { depsLockFilePath, fromRoot, projectRoot } from './paths';

/**
 * An API route function's timeout: well inside API Gateway's 30 s integration limit (the client gets a
 * 503 beyond it), from the one budget every route's outbound calls are counted against (shared/domain/time-budgets.ts).
 */
export const API_TIMEOUT_SECONDS = API_FUNCTION_TIMEOUT_MS / 1000;
/** HTTP APIs end an integration call after 30 s at most. */
export const API_GATEWAY_INTEGRATION_LIMIT_SECONDS = 30;

/**
 * After esbuild bundled a function: the beside modules its bundle imports, each built into its own file
 * next to index.mjs (infra/cdk/bundling.ts, BESIDE_BUNDLE_MODULES: zxcvbn's dictionaries, only for the
 * functions that set a password). The asset's hash is its output's, so that file counts in it.
 */
const BESIDE_BUNDLE_HOOKS: ICommandHooks = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (_inputDir, outputDir) => besideBundleCommands(outputDir, ESBUILD),
};

export interface ApiFunctionProps {
  /** Handler module relative to the project root; it exports `handler`. */
  handler: string;
  environment: Record<string, string>;
  description: string;
  /** Default API_TIMEOUT_SECONDS (API routes); queue workers take longer. */
  timeoutSeconds?: number;
  /** How long the function's log group keeps its lines. */
  logRetention: logs.RetentionDays;
  /** Concurrency reserved for (and limited to) this function; default none. */
  reservedConcurrency?: number;
  /**
   * Lambda's recursive loop detection (the function's RecursiveLoop); default Terminate, AWS's own. A
   * queue consumer that sends to its own queue on purpose (retries, hops) needs Allow (shared/platform/queues.ts).
   */
  recursiveLoop?: 'Allow' | 'Terminate';
}

/**
 * One Lambda function behind one API route: Node 22 on arm64, bundled by the local esbuild into a
 * single ESM file, with its own log group and its own role. The role starts with no permissions but
 * writing to that log group; the stack adds table and secret access per route.
 */
export class ApiFunction extends Construct {
  /** The handler module, relative to the project root (what the function's bundle is built from). */
  readonly handler: string;
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    this.handler = props.handler;
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: props.logRetention });
    // An own role instead of the AWSLambdaBasicExecutionRole managed policy: it may write to this
    // function's log group only.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: fromRoot(props.handler),
      handler: 'handler',
      projectRoot,
      depsLockFilePath,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? API_TIMEOUT_SECONDS),
      reservedConcurrentExecutions: props.reservedConcurrency,
      recursiveLoop: props.recursiveLoop === 'Allow' ? lambda.RecursiveLoop.ALLOW : lambda.RecursiveLoop.TERMINATE,
      role: this.role,
      logGroup: this.logGroup,
      // X-Ray active tracing: one segment per invocation, without code (docs/decisions.md, Observability: why no SDK subsegments).
      tracing: lambda.Tracing.ACTIVE,
      environment: props.environment,
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        // Only the beside modules, which a bundle imports from their own files (infra/cdk/bundling.ts).
        externalModules: [...LAMBDA_BUNDLE_EXTERNALS],
        define: LAMBDA_BUNDLE_DEFINES,
        commandHooks: BESIDE_BUNDLE_HOOKS,
        bundleAwsSDK: true,
        forceDockerBundling: false,
        // The SDK's default credential chain reduced to the environment, where Lambda puts the role's credentials (infra/cdk/bundling.ts).
        esbuildArgs: { '--alias': aliasArgs() },
      },
    });
    // The role must exist with its log permissions before the function is created.
    this.fn.node.addDependency(this.role);

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'xray:PutTraceSegments and xray:PutTelemetryRecords (added by active tracing) support no resource-level permission: X-Ray documents Resource "*" for them.',
    });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The runtime is pinned to nodejs22.x to match the Node major the handlers are tested on (package.json engines, node@22 dev dependency); move to the next LTS together with the test toolchain.',
    });
  }
}
