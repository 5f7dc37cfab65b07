import type { ResourceHandlers } from '../shared/runner';

export const eventHandlers: ResourceHandlers = {};
