import type { INodeProperties } from 'n8n-workflow';

// Filled in by the Message resource work.
export const messageOperations: INodeProperties[] = [];

export const messageFields: INodeProperties[] = [];
