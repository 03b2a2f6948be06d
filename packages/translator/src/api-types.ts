// Response shapes the translator declares itself, for the dashboard (packages/translator-web) to import
// as types only: its build erases them, so no server code reaches the browser.
export type { AiJob as Job } from './ai/jobs-service.ts';
export type { Prompt } from './ai/prompts-service.ts';
export type { AiJobStatus as JobStatus, PhraseStatus } from './db/schema.ts';
export type { VarSlot } from './phrases/slots.ts';
export type { ListRow as Row } from './translations/translations-service.ts';
