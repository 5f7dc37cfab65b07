import type { ResourceHandlers } from '../shared/runner';

export const timelineHandlers: ResourceHandlers = {};
