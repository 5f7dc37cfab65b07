// The ceiling of the send benchmarks: the least a community node can do inside n8n for one
// authenticated request per item. Every parameter and the credential are read once per
// execution (no expression is evaluated per item); each item's body is the fixed body plus the
// listed fields of the item; requests go through httpRequestWithAuthentication with the
// credential handed over, `Concurrency` at a time, as this package's node sends them.
// Only type imports: the compiled file needs nothing at run time.
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

const CREDENTIAL = 'benchCeilingApi';

export class BenchCeiling implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bench Ceiling',
		name: 'benchCeiling',
		group: ['transform'],
		version: 1,
		description: 'Bench fixture: one authenticated POST per item, nothing else',
		defaults: { name: 'Bench Ceiling' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL, required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/v1/messages' },
			{ displayName: 'Fixed Body (JSON)', name: 'fixedBody', type: 'string', default: '{}' },
			{ displayName: 'Item Fields', name: 'itemFields', type: 'string', default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 10 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const path = this.getNodeParameter('path', 0) as string;
		const fixedBody = JSON.parse(this.getNodeParameter('fixedBody', 0) as string) as IDataObject;
		const itemFields = (this.getNodeParameter('itemFields', 0) as string)
			.split(',')
			.map((field) => field.trim())
			.filter(Boolean);
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		const data = await this.getCredentials(CREDENTIAL);
		const ref = this.getNode().credentials?.[CREDENTIAL];
		const credentialsDecrypted: ICredentialsDecrypted = { id: ref?.id ?? '', name: ref?.name ?? CREDENTIAL, type: CREDENTIAL, data };
		const url = `${String(data.baseUrl)}${path}`;

		const output: INodeExecutionData[] = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				const body: IDataObject = { ...fixedBody };
				for (const field of itemFields) body[field] = items[index].json[field];
				const answer = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL,
					{ method: 'POST', url, body, json: true },
					{ credentialsDecrypted },
				)) as IDataObject;
				output[index] = { json: answer, pairedItem: { item: index } };
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [output];
	}
}
