/**
 * A job's page address, carrying the container it works on: the API's job record does not name it, and
 * the job page links back to it from these.
 */
export const jobPath = (jobId: number, siteId: number, containerId: number) =>
  `/jobs/${jobId}?site=${siteId}&container=${containerId}`;

/** The container a job page's address names, when both of its ids are whole numbers. */
export function jobContainer(params: URLSearchParams): { siteId: number; id: number } | null {
  const siteId = Number(params.get('site'));
  const id = Number(params.get('container'));
  return Number.isInteger(siteId) && siteId > 0 && Number.isInteger(id) && id > 0 ? { siteId, id } : null;
}
