import type { INodeProperties } from 'n8n-workflow';

// Filled in by the Timeline resource work.
export const timelineOperations: INodeProperties[] = [];

export const timelineFields: INodeProperties[] = [];
