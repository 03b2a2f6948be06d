export { AppFrame } from './AppFrame.tsx';
export { Busy } from './Busy.tsx';
export { Modal } from './lazy-modal.tsx';
export { ConfirmButton, type ConfirmButtonProps } from './ConfirmButton.tsx';
export { FirstSteps, type FirstStep } from './FirstSteps.tsx';
export { NavLinks, type NavItem } from './NavLinks.tsx';
export { formatBytes, formatDate } from './format.ts';
export { safeRedirect } from './safe-redirect.ts';
export { renderApp } from './app-root.tsx';
export { DataRouter, PlainRouter, type AppRouter } from './routers.tsx';
export { ApiError, type FieldErrors } from './api-error.ts';
export { createClient, typedApi, type ClientOptions, type TypedCall } from './client.ts';
export { readEventStream, type StreamEvent } from './event-stream.ts';
export { errorMessage, notifyError, notifySuccess } from './notify.ts';
export { operationUrl, queryString, type Init } from './operation-url.ts';
export type {
  AnswerOf,
  ErrorCodeOf,
  InitArgs,
  InitOf,
  Method,
  Operation,
  PathOf,
  QueryOf,
  SuccessOf,
} from './operations.ts';
export { DataTable, type Column, type DataTableProps, type SelectFilter } from './data-table/DataTable.tsx';
export { LocalDataTable, type LocalDataTableProps } from './data-table/LocalDataTable.tsx';
export { tableRows, type TableView } from './data-table/table-rows.ts';
export { PAGE_SIZES, useLocalView, useUrlView } from './data-table/url-view.ts';
