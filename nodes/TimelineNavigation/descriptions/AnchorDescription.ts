import type { INodeProperties } from 'n8n-workflow';

// Filled in by the Anchor resource work.
export const anchorOperations: INodeProperties[] = [];

export const anchorFields: INodeProperties[] = [];
