/**
 * How `npm start` puts the example workflows into n8n without overwriting what the user built:
 * it remembers, in the user folder, which workflow each example became and n8n's version id of
 * it as imported. On the next start an example is imported when it has no workflow (first start,
 * or the user deleted it), updated when the user has not changed it and examples/ has, and left
 * alone when the user has changed it in the editor (n8n gives a saved workflow a new version id).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { waitFor } from '../shared/wait';
import type { N8nClient, WorkflowJson } from './client';

/** What the user folder remembers of each example, by file name. */
interface Imported {
	id: string;
	/** n8n's version id of the workflow right after npm start imported or updated it. */
	versionId: string;
	/** The example as imported (a digest of its JSON with the credentials wired). */
	source: string;
}

export const STATE_FILE = 'npm-start-examples.json';

export type ExampleOutcome = 'imported' | 'updated' | 'unchanged' | 'kept';

export interface ProvisionedExample {
	id: string;
	outcome: ExampleOutcome;
	/** Kept with the user's changes although examples/ holds a newer version. */
	newerInExamples: boolean;
}

const digest = (json: WorkflowJson) => createHash('sha256').update(JSON.stringify(json)).digest('hex').slice(0, 16);

function readState(file: string): Record<string, Imported> {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Imported>;
	} catch {
		return {};
	}
}

async function versionIdOf(n8n: N8nClient, id: string): Promise<string | undefined> {
	const res = await n8n.api('GET', `/workflows/${id}`, undefined, { allowError: true });
	return res.status === 200 ? String(res.body.versionId) : undefined;
}

/** The example workflows' place in one user folder: see the top of this file. */
export class DemoExamples {
	private readonly file: string;
	private readonly state: Record<string, Imported>;

	constructor(userFolder: string) {
		this.file = path.join(userFolder, STATE_FILE);
		this.state = readState(this.file);
	}

	/**
	 * Puts one example (its credentials already wired) into n8n, keeping the user's changes.
	 * A workflow of the example's name that an earlier `npm start` imported without this record
	 * counts as the user's: kept.
	 */
	async provision(n8n: N8nClient, file: string, json: WorkflowJson): Promise<ProvisionedExample> {
		const source = digest(json);
		const known = this.state[file];
		const current = known ? await versionIdOf(n8n, known.id) : undefined;
		if (known && current !== undefined) {
			if (current !== known.versionId) return { id: known.id, outcome: 'kept', newerInExamples: known.source !== source };
			if (known.source === source) return { id: known.id, outcome: 'unchanged', newerInExamples: false };
			return this.put(n8n, file, { ...json, id: known.id }, source, 'updated');
		}
		if (!known) {
			const q = new URLSearchParams({ name: json.name, limit: '250' });
			const earlier = ((await n8n.api('GET', `/workflows?${q}`)).body.data ?? []).find((w: { name: string }) => w.name === json.name);
			if (earlier) return { id: String(earlier.id), outcome: 'kept', newerInExamples: true };
		}
		// Never imported, or deleted by the user: a new workflow (not one of the same name).
		return this.put(n8n, file, { ...json, name: json.name }, source, 'imported', true);
	}

	private async put(
		n8n: N8nClient,
		file: string,
		json: WorkflowJson,
		source: string,
		outcome: ExampleOutcome,
		create = false,
	): Promise<ProvisionedExample> {
		const id = create ? String((await n8n.api('POST', '/workflows', { name: json.name, nodes: [], connections: {}, settings: {} })).body.id) : json.id!;
		await n8n.importWorkflow({ ...json, id });
		const versionId = (await versionIdOf(n8n, id)) ?? '';
		this.state[file] = { id, versionId, source };
		fs.writeFileSync(this.file, JSON.stringify(this.state, null, 2) + '\n');
		return { id, outcome, newerInExamples: false };
	}

	/** The workflow id of an example npm start put into n8n (by file name), if any. */
	idOf(file: string): string | undefined {
		return this.state[file]?.id;
	}

	/**
	 * Deletes the workflow of a published example the user has not changed, and with it what it
	 * remembers (its static data, and what n8n's process holds by its id) and its executions, so
	 * that the next `provision` imports it afresh. One the user changed is kept as it is; one not
	 * published, or gone, is left alone.
	 */
	async forget(n8n: N8nClient, file: string): Promise<'deleted' | 'kept' | 'none'> {
		const known = this.state[file];
		const res = known && (await n8n.api('GET', `/workflows/${known.id}`, undefined, { allowError: true }));
		if (!res || res.status !== 200) return 'none';
		if (String(res.body.versionId) !== known.versionId) return 'kept';
		if (!res.body.active) return 'none';
		// n8n 2.41 deletes no published workflow, nor one whose unpublication is still under way (409).
		await n8n.deactivate(known.id);
		await waitFor(
			`n8n to delete the unpublished workflow ${known.id}`,
			async () => {
				const deleted = await n8n.api('DELETE', `/workflows/${known.id}`, undefined, { allowError: true });
				if (deleted.status !== 409 && deleted.status >= 400) throw new Error(`DELETE /workflows/${known.id} -> ${deleted.status}: ${JSON.stringify(deleted.body)}`);
				return deleted.status !== 409;
			},
			{ timeoutMs: 60_000, intervalMs: 250 },
		);
		return 'deleted';
	}

	/** After the demo published a workflow: its version id as n8n now has it is still "as imported". */
	async published(n8n: N8nClient, file: string): Promise<void> {
		const known = this.state[file];
		const versionId = known && (await versionIdOf(n8n, known.id));
		if (!known || !versionId || versionId === known.versionId) return;
		known.versionId = versionId;
		fs.writeFileSync(this.file, JSON.stringify(this.state, null, 2) + '\n');
	}
}
