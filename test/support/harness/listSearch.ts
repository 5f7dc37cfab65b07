// Runs a node's listSearch method (a resource locator's "From List" mode) the way the editor
// does: through n8n-core's LoadOptionsContext, with the node's credentials and parameters.
import { LoadOptionsContext } from 'n8n-core';
import { NodeHelpers, Workflow, type INode, type INodeListSearchResult, type INodeParameters } from 'n8n-workflow';
import { buildAdditionalDataForTests } from '../../../tools/shared/additionalData';
import type { StoredCredential } from '../../../tools/shared/credentials';
import { createCredentialsHelper, getPackage } from './run';

export interface ListSearchCall {
	/** Full node type name, e.g. `n8n-nodes-timeline-navigation.timelineNavigation`. */
	nodeType: string;
	method: string;
	/** Credentials as set on the node, e.g. `{ timelineNavigationApi: { id: 'tl', name: 'Timeline' } }`. */
	nodeCredentials: INode['credentials'];
	credentials: StoredCredential[];
	filter?: string;
	paginationToken?: string;
	/** The node's current parameters (the editor sends them with the request). */
	parameters?: INodeParameters;
	/** The parameter the list belongs to, as the editor names it. Default `parameters.timelineId`. */
	path?: string;
}

export async function runListSearch(call: ListSearchCall): Promise<INodeListSearchResult> {
	const pkg = await getPackage();
	const type = NodeHelpers.getVersionedNodeType(pkg.nodeTypes.getByName(call.nodeType));
	const search = type.methods?.listSearch?.[call.method];
	if (!search) throw new Error(`${call.nodeType} has no listSearch method "${call.method}"`);
	const node: INode = {
		id: 'under-test',
		name: 'Node Under Test',
		type: call.nodeType,
		typeVersion: 1,
		position: [0, 0],
		parameters: call.parameters ?? {},
		credentials: call.nodeCredentials,
	};
	const workflow = new Workflow({
		id: 'harness-list-search',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: pkg.nodeTypes,
	});
	const additionalData = buildAdditionalDataForTests(
		await createCredentialsHelper(call.credentials),
		{ id: workflow.id, name: 'List search', nodes: [node], connections: {}, active: false } as never,
	);
	additionalData.currentNodeParameters = node.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, call.path ?? 'parameters.timelineId');
	return await search.call(context, call.filter, call.paginationToken);
}
