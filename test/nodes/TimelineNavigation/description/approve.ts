// Writes the action node's description views (see views.ts) from the node's source to
// approved.json. Run it (`npx tsx test/nodes/TimelineNavigation/description/approve.ts`) only
// after a deliberate change to what the editor shows; description.test.ts fails on any other
// difference.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TimelineNavigation } from '../../../../nodes/TimelineNavigation/TimelineNavigation.node';
import { descriptionViews } from './views';

const views = descriptionViews(new TimelineNavigation().description);
writeFileSync(join(__dirname, 'approved.json'), JSON.stringify(views, null, '\t') + '\n');
console.log(`approved.json: ${Object.keys(views.operations).length} operations`);
