/**
 * The page's "start here": what a demo running the sandbox (npm start) offers to try first, each
 * step with what happens and where to look, and started from the page by one control call
 * (POST /_sandbox/tour/{step}). The sandbox knows none of it: the demo gives the steps and starts
 * each (a customer's message, an event, an anomaly, a request to n8n).
 */
import { HttpError } from './http';

export interface TourStep {
	/** Its path segment: POST /_sandbox/tour/{id}. */
	id: string;
	/** The button's words. */
	label: string;
	/** What happens, and where to look. */
	happens: string;
	/** The number whose conversation shows the result: the page opens it. */
	phone: string;
}

export interface TourView {
	steps: TourStep[];
	/** What Reset does beyond the sandbox's world, and what it keeps (asked before a reset). */
	reset: string;
}

export interface Tour {
	view(): TourView;
	/**
	 * Starts a step; resolves with what the page tells the user. A step that cannot start throws
	 * an HttpError saying why and how to fix it.
	 */
	start(stepId: string): Promise<{ started: string }>;
}

/** POST /_sandbox/tour/{step}: the step started, or why not. */
export async function startStep(tour: Tour | undefined, stepId: string): Promise<{ step: string; started: string }> {
	if (!tour) {
		throw new HttpError(404, 'not_found', 'This sandbox has no tour: the page\'s "start here" comes with npm start, which runs n8n beside it.', 'step');
	}
	const ids = tour.view().steps.map((s) => s.id);
	if (!ids.includes(stepId)) {
		throw new HttpError(404, 'not_found', `No tour step '${stepId}': the steps are ${ids.map((id) => `'${id}'`).join(', ')}.`, 'step');
	}
	return { step: stepId, ...(await tour.start(stepId)) };
}
