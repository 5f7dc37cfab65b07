import type { INodeProperties } from 'n8n-workflow';

// Filled in by the Item resource work.
export const itemOperations: INodeProperties[] = [];

export const itemFields: INodeProperties[] = [];
