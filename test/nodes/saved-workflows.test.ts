// Workflows saved with each released version keep doing what they did: every fixture of every
// release (test/fixtures/saved-workflows/<release>/) runs on the current code and must send the
// same requests, in the same order, and (for the trigger) answer each delivery the same way and
// output the same items. A failure here means a saved workflow would now behave differently:
// restore the old behaviour for that node version and put the change in a new node version
// (docs/changing-parameters.md). Never regenerate a released folder to make this pass.
import { COMBINED } from '../../tools/packages/packages';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server';
import type { ReleasedDescriptions } from '../support/released-descriptions';
import { readFixtures, releasesWithFixtures, SAVED_WORKFLOWS_DIR } from '../support/saved-workflows';
import { runFixture } from '../support/saved-workflows-run';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => sandbox.close());

const releases = releasesWithFixtures();

it('has the fixtures of at least the first release', () => {
	expect(releases).toContain('0.1.0');
});

describe.each(releases)('workflows saved with %s', (release) => {
	const fixtures = readFixtures(release);

	// The editions' action nodes run the same operation modules with the same parameters; their
	// descriptions are guarded by released-descriptions.test.ts, the requests by these fixtures.
	it("cover every version of the combined package's nodes the release shipped", () => {
		const shipped: ReleasedDescriptions = JSON.parse(readFileSync(join(SAVED_WORKFLOWS_DIR, release, 'description.json'), 'utf8'));
		const saved = new Set(fixtures.flatMap(({ fixture }) => fixture.workflow.nodes.map((node) => `${node.type}@${node.typeVersion}`)));
		const versions = Object.entries(shipped.nodes)
			.filter(([type]) => type.startsWith(`${COMBINED.name}.`))
			.flatMap(([type, byVersion]) => Object.keys(byVersion).map((version) => `${type}@${version}`));
		expect(versions.length).toBeGreaterThanOrEqual(2); // both nodes, each at its version, from 0.1.0 on
		expect(versions.filter((version) => !saved.has(version))).toEqual([]);
	});

	it.each(fixtures.map(({ id, fixture }) => [id, fixture] as const))('%s runs as it did', async (_id, fixture) => {
		const run = await runFixture(fixture, sandbox);

		expect(run.requests).toEqual(fixture.expected.requests);
		expect(run.deliveries).toEqual(fixture.expected.deliveries);
		expect(run.error).toEqual(fixture.expected.error);
	});
});
