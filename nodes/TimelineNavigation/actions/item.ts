import type { ResourceHandlers } from '../shared/runner';

export const itemHandlers: ResourceHandlers = {};
