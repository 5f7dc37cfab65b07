// The description of every node version a release shipped stays what that release recorded
// (test/fixtures/saved-workflows/<release>/description.json): the parameters saved workflows
// hold keep their names, types, defaults, display rules and options. Wording may change and
// optional fields may be added; any other change belongs in a new node version
// (docs/changing-parameters.md).
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { TimelineNavigation } from '../../nodes/TimelineNavigation/TimelineNavigation.node';
import { expandOperations, shareFields } from './TimelineNavigation/description/views';
import {
	changesSinceRelease,
	operationChanges,
	viewsAtVersion,
	type ReleasedDescriptions,
} from '../support/released-descriptions';
import { releasesWithFixtures, SAVED_WORKFLOWS_DIR } from '../support/saved-workflows';

const ADVICE =
	'A released node version must keep its parameters: restore them, and make the change in a new node version (docs/changing-parameters.md).';

const released = releasesWithFixtures()
	.map((release) => join(SAVED_WORKFLOWS_DIR, release, 'description.json'))
	.filter((file) => existsSync(file))
	.map((file) => JSON.parse(readFileSync(file, 'utf8')) as ReleasedDescriptions);

const versions = released.flatMap((description) =>
	Object.entries(description.nodes).flatMap(([type, byVersion]) =>
		Object.entries(byVersion).map(([version, views]) => [description.release, type, version, views] as const),
	),
);

it('has the released descriptions of every node at every version 0.1.0 shipped', () => {
	expect(versions.filter(([release]) => release === '0.1.0').map(([, type, version]) => `${type}@${version}`)).toEqual([
		'n8n-nodes-timeline-navigation.timelineNavigation@1',
		'n8n-nodes-timeline-navigation.chatAppMessagingTrigger@1.1',
		'n8n-nodes-chat-app-messaging.chatAppMessaging@1',
		'n8n-nodes-timeline-navigation-service.timelineNavigationService@1',
	]);
});

it.each(versions)('%s: %s version %s still shows what it shipped', async (_release, type, version, views) => {
	const changes = await changesSinceRelease(type, version, views);
	if (changes.length > 0) throw new Error(`${changes.join('\n')}\n\n${ADVICE}`);
});

describe('what counts as a change to a released version', () => {
	const description = new TimelineNavigation().description;
	const shipped = expandOperations(shareFields(viewsAtVersion(description, 1)));
	const fields = () => JSON.parse(JSON.stringify(shipped['message.sendTemplate'])) as IDataObject[];
	const field = (list: IDataObject[], name: string) => list.find((candidate) => candidate.name === name) as IDataObject;

	it('a changed default, a removed option value and a renamed field are reported with the operation and field', () => {
		const current = fields();
		field(current, 'parametersInput').default = 'array';
		field(current, 'parametersInput').options = (field(current, 'parametersInput').options as IDataObject[]).filter(
			(option) => option.value !== 'list',
		);
		field(current, 'templateId').name = 'template';

		expect(operationChanges('Send Template', shipped['message.sendTemplate'], current)).toEqual([
			'Send Template, field "templateId": the field is gone',
			'Send Template, field "parametersInput": default was "list", is now "array"',
			'Send Template, field "parametersInput": option value "list" (One by One) is gone',
			'Send Template, field "template": new and required, which workflows saved without it fail',
		]);
	});

	it('a lost sub-field, a new required field and a changed type are reported; new wording and optional fields are not', () => {
		const current = fields();
		const list = field(current, 'templateParameters');
		list.options = (list.options as IDataObject[]).filter((group) => group.name !== 'placeholder2');
		field(current, 'to').type = 'number';
		field(current, 'to').description = 'New wording';
		current.push({ name: 'priority', type: 'boolean', default: false }, { name: 'channel', type: 'string', default: '', required: true });

		expect(operationChanges('Send Template', shipped['message.sendTemplate'], current)).toEqual([
			'Send Template, field "to": type was "string", is now "number"',
			'Send Template, field "templateParameters": the group "placeholder2" is gone',
			'Send Template, field "channel": new and required, which workflows saved without it fail',
		]);
	});
});
