// globalSetup.ts for the n8n 1.x jest project: jest runs a global setup file once even when
// several projects name it, so each project names a file of its own.
export { default } from './globalSetup';
