// Adding display conditions to fields, in one place. n8n checks a field's `show` conditions in
// order and shows the field as soon as one of them reads an expression (it cannot know the
// value), so the conditions that scope a field (its resource and operation, Data to Send, a
// switch) must come before the field's own: after an own condition that holds an expression,
// such as Fallback to Template set to `{{ true }}`, the field would show for every operation and
// its required fields would stop the node. n8n-workflow's updateDisplayOptions puts them after.
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export function shownOnlyWhen(show: NonNullable<IDisplayOptions['show']>, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const own = property.displayOptions?.show ?? {};
		const repeated = Object.keys(show).find((key) => key in own);
		if (repeated !== undefined) throw new Error(`The field "${property.name}" already has a display condition on "${repeated}"`);
		return { ...property, displayOptions: { ...property.displayOptions, show: { ...show, ...own } } };
	});
}
