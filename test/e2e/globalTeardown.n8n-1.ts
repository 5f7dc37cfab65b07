// globalTeardown.ts for the n8n 1.x jest project (see globalSetup.n8n-1.ts).
export { default } from './globalTeardown';
