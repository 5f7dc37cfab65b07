export { runNode, runWorkflow, getPackage } from './run';
export { testCredential } from './credentialTest';
export type { StoredCredential } from '../../../tools/shared/credentials';
export { INPUT_NODE_TYPE, MANUAL_TRIGGER_NODE_TYPE, SANDBOX_PROBE_NODE_TYPE } from './fixtures';
export { PROJECT_ROOT, readPackageJson } from './sourcePackage';
export { runListSearch } from './listSearch';
export { hostTrigger, TRIGGER_NODE_TYPE, type HostedTrigger, type HostTriggerOptions } from './webhook';
