export { runNode, runWorkflow, getPackage, type RunResult, type WorkflowJson, type NodeUnderTest } from './run';
export { testCredential, type CredentialTestResult } from './credentialTest';
export type { StoredCredential } from './credentials';
export { INPUT_NODE_TYPE, MANUAL_TRIGGER_NODE_TYPE, SANDBOX_PROBE_NODE_TYPE } from './fixtures';
export { PROJECT_ROOT, readPackageJson } from './sourcePackage';
export { runListSearch, type ListSearchCall } from './listSearch';
export {
	hostTrigger,
	TRIGGER_NODE_TYPE,
	type HostedTrigger,
	type HostTriggerOptions,
	type RecordedHttpResponse,
	type WebhookCall,
	type WorkflowStart,
} from './webhook';
