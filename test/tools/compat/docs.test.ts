// The compatibility tables of README.md and docs/compatibility.md are what the last
// `npm run test:compat` gave (docs/compatibility.json), over the whole version list, and the
// floors the documents and the version list state are the ones the nodes refuse by.
import { readFileSync } from 'node:fs';

import { N8N_FLOOR, SEND_AND_WAIT_FLOOR } from '../../../nodes/shared/n8nVersion';
import { DOCUMENTS, generatedBlocks, readResults, withGenerated } from '../../../tools/compat/results';
import { MATRIX } from '../../../tools/n8n/versions';

const results = readResults();
const below = (version: string, floor: string) => {
	const [a, b] = [version, floor].map((v) => v.split('.').map(Number));
	return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
};

it('the last results cover every version of the list, in its order, each run passed', () => {
	expect(results.map((version) => ({ n8n: version.n8n, passed: version.passed }))).toEqual(MATRIX.map(({ n8n }) => ({ n8n, passed: true })));
});

it.each(Object.entries(DOCUMENTS))('%s shows the tables made from the last results', (name, file) => {
	const text = readFileSync(file, 'utf8');
	let expected = text;
	for (const [block, content] of Object.entries(generatedBlocks(results)[name as keyof typeof DOCUMENTS])) expected = withGenerated(expected, block, content);
	expect(text).toBe(expected);
});

it("the list's roles follow the package's floor: the newest release below it, the oldest at it, the newest last", () => {
	const role = (name: string) => MATRIX.filter((entry) => entry.role === name).map((entry) => entry.n8n);
	const [belowFloor] = role('below the floor');
	const [floor] = role('floor');
	expect(below(belowFloor, N8N_FLOOR)).toBe(true);
	expect(below(floor, N8N_FLOOR)).toBe(false);
	expect(MATRIX.filter((entry) => below(entry.n8n, N8N_FLOOR)).at(-1)?.n8n).toBe(belowFloor);
	expect(MATRIX.find((entry) => !below(entry.n8n, N8N_FLOOR))?.n8n).toBe(floor);
	expect(role('newest')).toEqual([MATRIX.at(-1)!.n8n]);
});

it("the README's table of floors names the floors the nodes refuse by", () => {
	const readme = readFileSync(DOCUMENTS.readme, 'utf8');
	expect(readme).toContain(`**n8n ${N8N_FLOOR} or newer**; Send and Wait for Response needs ${SEND_AND_WAIT_FLOOR} or newer`);
	expect(readme).toContain(`| every node of the three packages | ${N8N_FLOOR} | the nodes load, show "This node needs n8n ${N8N_FLOOR} or newer" and do not run |`);
	expect(readme).toContain(`| Message → Send and Wait for Response | ${SEND_AND_WAIT_FLOOR} (n8n signs the answer link) | "Message → Send and Wait for Response needs n8n ${SEND_AND_WAIT_FLOOR} or newer"; nothing is sent |`);
});
