// The server-side context n8n gives a workflow execution, reduced to what nodes use (the test
// harness's and the bench's in-process runs).
import { ExecutionLifecycleHooks } from 'n8n-core';
import type { IWorkflowBase, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import type { HarnessCredentialsHelper } from './credentials';

export function buildAdditionalDataForTests(
	credentialsHelper: HarnessCredentialsHelper,
	workflowData: IWorkflowBase,
	executionId = 'harness',
): IWorkflowExecuteAdditionalData {
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	const unavailable = (what: string) => () => {
		throw new Error(`${what} is not available in the harness`);
	};
	return {
		credentialsHelper,
		hooks,
		executionId,
		executeWorkflow: unavailable('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unavailable('startRunnerTask'),
		logAiEvent: () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

