import type { ResourceHandlers } from '../shared/runner';

export const anchorHandlers: ResourceHandlers = {};
