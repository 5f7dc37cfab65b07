import type { ResourceHandlers } from '../shared/runner';

export const messageHandlers: ResourceHandlers = {};
