// Runs a credential type's `test` request the way n8n's credential tester does: through a
// RoutingNode (declarative request, authentication applied by the credentials helper), then
// n8n's verdict rules: responseCode rules on HTTP errors, any other non-2xx fails,
// responseSuccessBody rules on a successful answer.
import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createEmptyRunExecutionData,
	NodeConnectionTypes,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeType,
	type IWorkflowBase,
} from 'n8n-workflow';
import { createCredentialsHelper, getPackage } from './run';
import { buildAdditionalDataForTests } from '../../../tools/shared/additionalData';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

function get(object: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], object);
}

export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const pkg = await getPackage();
	const credentialType = pkg.credentialTypes.get(type);
	if (!credentialType?.test) throw new Error(`Credential type ${type} has no test request`);
	const testRequest = credentialType.test;
	const credentialsHelper = await createCredentialsHelper([{ id: 'under-test', name: 'Under Test', type, data }]);

	const probeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: type, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: testRequest.request } },
			],
		},
	};
	pkg.nodeTypes.register('harness.credentialTest', probeType);
	const node: INode = {
		id: 'credential-test',
		name: 'Credential Test',
		type: 'harness.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: { temp: '' },
		credentials: { [type]: { id: 'under-test', name: 'Under Test' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: pkg.nodeTypes });
	const additionalData = buildAdditionalDataForTests(credentialsHelper, {
		id: 'credential-test',
		name: 'Credential Test',
		nodes: [node],
		connections: {},
	} as unknown as IWorkflowBase);
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, probeType, { id: 'under-test', name: 'Under Test', type, data });

	let response;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		// As n8n 2.41's CredentialsTester.runRequestTest: responseCode rules, then any status
		// outside 2xx fails with the reason phrase (or the bare status), then the network code,
		// then the error's own message.
		const httpResponse = error.cause?.response;
		if (httpResponse) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === httpResponse.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (httpResponse.status < 199 || httpResponse.status > 299) {
				return { status: 'Error', message: httpResponse.statusText || `Received HTTP status code: ${httpResponse.status}` };
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	const body = response?.[0]?.[0]?.json;
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
