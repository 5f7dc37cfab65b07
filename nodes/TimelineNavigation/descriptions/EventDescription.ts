import type { INodeProperties } from 'n8n-workflow';

// Filled in by the Event resource work.
export const eventOperations: INodeProperties[] = [];

export const eventFields: INodeProperties[] = [];
