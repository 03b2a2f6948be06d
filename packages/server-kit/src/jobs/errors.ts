export class JobCancelledError extends Error {
  override name = 'JobCancelledError';
  constructor() {
    super('The job was cancelled.');
  }
}

export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
  constructor(ms: number) {
    super(`The job ran longer than ${Math.round(ms / 1000)} s and was stopped.`);
  }
}

export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor() {
    super('This worker lost the job to another worker.');
  }
}

export class WorkerShutdownError extends Error {
  override name = 'WorkerShutdownError';
  constructor() {
    super('The worker shut down while the job was running.');
  }
}
