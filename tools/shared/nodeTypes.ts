// The node types an in-process Workflow resolves, by the full names n8n gives them
// (`<package>.<node>`): the test harness's source classes and the bench's built package alike.
import { NodeHelpers, type INodeType, type INodeTypes, type IVersionedNodeType } from 'n8n-workflow';

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	register(fullName: string, type: INodeType | IVersionedNodeType): void {
		this.types.set(fullName, type);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type "${nodeType}" (known: ${[...this.types.keys()].join(', ')})`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}
